package io.riverbed.spark;

import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitReader;
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
 * path, the Hadoop configuration (broadcast), the plan without its splits ({@link ShippedPlan})
 * and how to read. Executors rebuild the core's {@link SplitReader} from it once per task.
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

  private transient SplitReader splitReader;
  private transient Map<Optional<FilterPredicate>, Configuration> vectorizedConfs;

  ReadContext(LoadedTable table, Broadcast<SerializableConfiguration> conf, StructType readSchema, Filter[] filters,
      VectorizedSettings vectorized, boolean columnar) {
    this.basePath = table.table().basePath().toString();
    this.conf = conf;
    this.plan = new ShippedPlan(table.plan(), table.avroSchema());
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

  Schema avroSchema() {
    return plan.avroSchema();
  }

  synchronized SplitReader splitReader() {
    if (splitReader == null) {
      splitReader = SplitReader.of(plan.rebuild(hadoopConf()), ReadSettings.fromOptions(options));
    }
    return splitReader;
  }
}
