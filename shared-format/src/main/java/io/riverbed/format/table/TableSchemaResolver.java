package io.riverbed.format.table;

import io.riverbed.format.TableException;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.log.HeaderKey;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.hadoop.fs.Path;

/**
 * Finds the schema readers use for a table, in Hudi's order: the {@code schema} of the newest
 * completed commit that can change the schema, else {@code hoodie.table.create.schema}, else the
 * schema of a file the latest commit wrote. The result always carries the five meta fields.
 */
public final class TableSchemaResolver {
  private TableSchemaResolver() {}

  /** The table schema with meta fields; empty for a table with no commit and no create schema. */
  public static Optional<Schema> resolve(Table table, Timeline activeTimeline) {
    TimelineStore store = table.timelineStore();
    List<Instant> completed = activeTimeline.commitsTimeline().completed().instants();
    for (int i = completed.size() - 1; i >= 0; i--) {
      Instant instant = completed.get(i);
      Optional<byte[]> bytes = store.readUnlessRemoved(instant);
      if (bytes.isEmpty()) {
        continue; // archived or rolled back since the listing
      }
      CommitMetadata metadata = CommitMetadata.parse(bytes.get(), store.pathOf(instant).toString());
      WriteOperationType op = metadata.operationType();
      if (op != null && !op.canUpdateSchema()) {
        continue;
      }
      Optional<String> schema = metadata.schema().filter(s -> !s.isBlank());
      if (schema.isPresent()) {
        return Optional.of(withMetaFields(parse(schema.get(), store.pathOf(instant).toString())));
      }
    }
    Optional<String> createSchema = table.config().createSchema().filter(s -> !s.isBlank());
    if (createSchema.isPresent()) {
      return Optional.of(withMetaFields(parse(createSchema.get(), "hoodie.table.create.schema of " + table.basePath())));
    }
    for (int i = completed.size() - 1; i >= 0; i--) {
      Instant instant = completed.get(i);
      Optional<byte[]> bytes = store.readUnlessRemoved(instant);
      if (bytes.isEmpty()) {
        continue;
      }
      CommitMetadata metadata = CommitMetadata.parse(bytes.get(), store.pathOf(instant).toString());
      for (String relative : metadata.writtenPaths()) {
        Optional<Schema> fromFile = schemaOfFile(table, new Path(table.basePath(), relative));
        if (fromFile.isPresent()) {
          return Optional.of(withMetaFields(fromFile.get()));
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<Schema> schemaOfFile(Table table, Path path) {
    String name = path.getName();
    try {
      if (!table.fs().exists(path)) {
        return Optional.empty();
      }
      if (FileNames.isBaseFile(name)) {
        return Optional.of(BaseFileReader.open(table.fs().getConf(), path).avroSchema());
      }
      if (FileNames.isLogFile(name)) {
        try (LogFileReader reader = LogFileReader.open(table.fs(), path)) {
          while (reader.hasNext()) {
            LogBlock block = reader.next();
            String schema = block.header().get(HeaderKey.SCHEMA);
            if (schema != null) {
              return Optional.of(parse(schema, path.toString()));
            }
          }
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      throw new TableException("cannot read schema from " + path, e);
    }
  }

  private static Schema withMetaFields(Schema schema) {
    return TableSchemas.hasMetaFields(schema) ? schema : TableSchemas.addMetaFields(schema);
  }

  private static Schema parse(String json, String source) {
    try {
      return new Schema.Parser().parse(json);
    } catch (RuntimeException e) {
      throw new TableException("schema in " + source + " is not a valid Avro schema: " + e.getMessage(), e);
    }
  }
}
