package io.riverbed.format.write;

import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.log.LogEntry;
import io.riverbed.format.log.MergedLogRecords;
import io.riverbed.format.log.SliceLogScanner;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.InstantCommittedPredicate;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A small orders table, record builders, and a test-only snapshot reader that merges each slice. */
final class WriteTestSupport {
  static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .optionalString("name")
      .requiredLong("ts")
      .requiredString("dt")
      .optionalBoolean("_hoodie_is_deleted")
      .endRecord();

  private WriteTestSupport() {}

  static Table createTable(java.nio.file.Path dir, TableType type) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    TableConfig config = TableConfig.builder("orders").type(type)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .createSchema(SCHEMA.toString())
        .build();
    return Table.create(fs, new Path(dir.toUri().toString(), "orders"), config);
  }

  static GenericRecord order(String id, String name, long ts, String dt) {
    var r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("name", name);
    r.put("ts", ts);
    r.put("dt", dt);
    return r;
  }

  static WriteRecord upsert(String id, String name, long ts, String dt) {
    return RecordKeyer.forTable(tableConfigStub()).toWriteRecord(order(id, name, ts, dt));
  }

  private static TableConfig tableConfigStub() {
    return TableConfig.builder("orders").recordKeyFields(List.of("id")).partitionFields(List.of("dt"))
        .precombineField("ts").build();
  }

  static Timeline timeline(Table table) {
    return TimelineStore.at(table.fs(), table.metaPath()).load();
  }

  /** Rows as Hudi's snapshot query would return them at the latest completed instant, by record key. */
  static Map<String, GenericRecord> snapshot(Table table) {
    Timeline timeline = timeline(table);
    FileSystemView view = FileSystemViewLoader.load(table, timeline);
    Map<String, GenericRecord> rows = new TreeMap<>();
    Optional<String> q = view.defaultQueryInstant();
    if (q.isEmpty()) {
      return rows;
    }
    Schema readerSchema = TableSchemas.addMetaFields(SCHEMA);
    PayloadMergeRule rule = PayloadMergeRule.forPayloadClass(table.config().payloadClass());
    for (FileSlice slice : view.latestMergedSlices(q.get())) {
      var scanner = SliceLogScanner.builder(table.fs()).readerSchema(readerSchema).latestInstantTime(q.get())
          .committed(InstantCommittedPredicate.of(timeline)).orderingField("ts").mergeRule(rule);
      for (LogFile log : slice.logFiles()) {
        scanner.logFile(log.path(), log.length());
      }
      try (MergedLogRecords logs = scanner.build().scan()) {
        Set<String> seen = new HashSet<>();
        if (slice.baseFile().isPresent()) {
          BaseFileReader reader = BaseFileReader.open(table.fs().getConf(), slice.baseFile().get().path());
          try (CloseableIterator<GenericRecord> it = reader.records(readerSchema)) {
            while (it.hasNext()) {
              GenericRecord base = it.next();
              String key = base.get(MetaFields.RECORD_KEY).toString();
              seen.add(key);
              Optional<LogEntry> entry = logs.get(key);
              Optional<GenericRecord> out = entry.isEmpty() ? Optional.of(base)
                  : rule.combineWithBase(key, base,
                      entry.get() instanceof LogEntry.Upsert u ? u.record() : null, "ts");
              out.ifPresent(r -> rows.put(key, r));
            }
          }
        }
        for (LogEntry entry : logs) {
          if (!seen.contains(entry.recordKey()) && !entry.isDelete()) {
            rows.put(entry.recordKey(), ((LogEntry.Upsert) entry).record());
          }
        }
      }
    }
    return rows;
  }

  /** {@code key -> name@ts} of a snapshot, for compact assertions. */
  static Map<String, String> namesAndTs(Table table) {
    Map<String, String> out = new TreeMap<>();
    snapshot(table).forEach((k, r) -> out.put(k, r.get("name") + "@" + r.get("ts")));
    return out;
  }
}
