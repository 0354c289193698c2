package io.riverbed.spark;

import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.timeline.CommittedLogWrites;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * What every split reader of one scan shares, in a form that ships to executors: the table's base
 * path, the Hadoop configuration (broadcast), the plan without its splits ({@link ShippedPlan}),
 * what the plan's instants committed into the log files read (loaded once on the driver) and how
 * to read. Executors rebuild the core's {@link SplitReader} from it once per task.
 */
final class ReadContext implements Serializable {
  private static final long serialVersionUID = 1L;

  final String basePath;
  final Broadcast<SerializableConfiguration> conf;
  final ShippedPlan plan;
  final Map<String, String> options;
  final StructType readSchema;
  final Filter[] filters;
  final VectorizedSettings vectorized;
  final boolean columnar;
  private final CommittedLogWrites logWrites;

  private transient SplitReader splitReader;
  private transient Map<ConfKey, Configuration> vectorizedConfs;
  private transient MergeColumns mergeColumns;

  ReadContext(LoadedTable table, Broadcast<SerializableConfiguration> conf, StructType readSchema, Filter[] filters,
      VectorizedSettings vectorized, boolean columnar, CommittedLogWrites logWrites) {
    this.basePath = table.table().basePath().toString();
    this.conf = conf;
    this.plan = new ShippedPlan(table.plan(), table.avroSchema());
    this.options = Map.copyOf(table.options().raw());
    this.readSchema = readSchema;
    this.filters = filters;
    this.vectorized = vectorized;
    this.columnar = columnar;
    this.logWrites = logWrites;
  }

  Configuration hadoopConf() {
    return conf.value().value();
  }

  boolean vectorizable(SliceSplit split) {
    return vectorized.reads(split, readSchema);
  }

  /**
   * True if {@code split}, a snapshot slice with logs over a base file, is merged in Spark rows
   * from a vectorized read of its base file ({@link VectorizedMergedSlice}).
   */
  boolean mergesVectorized(SliceSplit split) {
    return !split.baseOnly() && split.baseFile() != null && !split.incremental() && mergeColumns().vectorizable();
  }

  /** The columns a merged slice's base file is read with, and where the merge finds key and ordering value. */
  synchronized MergeColumns mergeColumns() {
    if (mergeColumns == null) {
      SplitReader reader = splitReader();
      mergeColumns = MergeColumns.of(readSchema, avroSchema(), reader.orderingField(), reader.mergeComparesBaseOrdering(),
          vectorized);
    }
    return mergeColumns;
  }

  private record ConfKey(StructType schema, Optional<FilterPredicate> predicate) {}

  /**
   * The Hadoop configuration the vectorized reader reads base files of {@code schema} with,
   * carrying {@code predicate}; built once per task, schema and predicate, not per file.
   */
  synchronized Configuration vectorizedConf(StructType schema, Optional<FilterPredicate> predicate) {
    if (vectorizedConfs == null) {
      vectorizedConfs = new HashMap<>();
    }
    return vectorizedConfs.computeIfAbsent(new ConfKey(schema, predicate), k -> {
      Configuration conf = VectorizedBaseFile.readConf(hadoopConf(), k.schema(), vectorized);
      k.predicate().ifPresent(f -> ParquetInputFormat.setFilterPredicate(conf, f));
      return conf;
    });
  }

  Schema avroSchema() {
    return plan.avroSchema();
  }

  synchronized SplitReader splitReader() {
    if (splitReader == null) {
      splitReader = SplitReader.of(plan.rebuild(hadoopConf()), ReadSettings.fromOptions(options), logWrites);
    }
    return splitReader;
  }
}
