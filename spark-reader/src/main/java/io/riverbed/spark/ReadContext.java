package io.riverbed.spark;

import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * What every split reader of one scan shares, in a form that ships to executors: the table's base
 * path, the Hadoop configuration (broadcast), the schema, the timeline the plan was made on
 * (instants as strings) and how to read. Executors rebuild the core's {@link SplitReader} from it
 * once per task, reading only {@code hoodie.properties}.
 */
final class ReadContext implements Serializable {
  private static final long serialVersionUID = 1L;

  final String basePath;
  final Broadcast<SerializableConfiguration> conf;
  final String avroSchemaJson;
  final ArrayList<String> instants;
  final String queryInstant;
  final Map<String, String> options;
  final StructType readSchema;
  final Filter[] filters;
  final VectorizedSettings vectorized;
  final boolean columnar;

  private transient SplitReader splitReader;
  private transient Schema avroSchema;
  private transient Map<Optional<FilterPredicate>, Configuration> vectorizedConfs;

  ReadContext(LoadedTable table, Broadcast<SerializableConfiguration> conf, StructType readSchema, Filter[] filters,
      VectorizedSettings vectorized, boolean columnar) {
    this.basePath = table.table().basePath().toString();
    this.conf = conf;
    this.avroSchemaJson = table.avroSchema().toString();
    this.instants = new ArrayList<>();
    for (Instant i : table.plan().activeTimeline().instants()) {
      instants.add(i.time() + "," + i.action().name() + "," + i.state().name());
    }
    this.queryInstant = table.plan().queryInstant().orElse(null);
    this.options = Map.copyOf(table.options().raw());
    this.readSchema = readSchema;
    this.filters = filters;
    this.vectorized = vectorized;
    this.columnar = columnar;
  }

  Configuration hadoopConf() {
    return conf.value().value();
  }

  boolean vectorizable(SliceSplit split) {
    return vectorized.reads(split, readSchema);
  }

  /**
   * The Hadoop configuration the vectorized reader reads base files with, carrying
   * {@code predicate}; built once per task and predicate (files of one schema share it), not per
   * file.
   */
  synchronized Configuration vectorizedConf(Optional<FilterPredicate> predicate) {
    if (vectorizedConfs == null) {
      vectorizedConfs = new HashMap<>();
    }
    return vectorizedConfs.computeIfAbsent(predicate, p -> {
      Configuration conf = VectorizedBaseFile.readConf(hadoopConf(), readSchema, vectorized);
      p.ifPresent(f -> ParquetInputFormat.setFilterPredicate(conf, f));
      return conf;
    });
  }

  synchronized Schema avroSchema() {
    if (avroSchema == null) {
      avroSchema = new Schema.Parser().parse(avroSchemaJson);
    }
    return avroSchema;
  }

  synchronized SplitReader splitReader() {
    if (splitReader == null) {
      Path base = new Path(basePath);
      Table table;
      try {
        table = Table.open(base.getFileSystem(hadoopConf()), base);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot reach " + basePath, e);
      }
      List<Instant> all = new ArrayList<>();
      for (String s : instants) {
        String[] p = s.split(",");
        all.add(new Instant(p[0], Action.valueOf(p[1]), State.valueOf(p[2])));
      }
      QueryPlan plan = new QueryPlan(table, Timeline.fromInstants(all), Optional.of(avroSchema()),
          Optional.ofNullable(queryInstant), Optional.empty(), List.of());
      splitReader = SplitReader.of(plan, ReadSettings.fromOptions(options));
    }
    return splitReader;
  }
}
