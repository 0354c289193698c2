package io.riverbed.bench;

import io.riverbed.flink.job.TableSinkBuilder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * A peer writer of the Flink write benchmark: Apache Iceberg's Flink upsert sink ({@link FlinkSink}
 * with {@code upsert(true)}) into a new format-v2 table of a Hadoop catalog at the benchmark's table
 * path, with the record key and partition fields as identifier (equality) fields, partitioned by
 * identity on the partition fields, written at the job's parallelism. Iceberg's defaults otherwise
 * (Parquet data files, equality deletes for the upserts, one commit per checkpoint, no compaction).
 */
final class IcebergUpsertSink {
  private static final TableIdentifier TABLE = TableIdentifier.of(Namespace.of("bench"), "trips");

  private IcebergUpsertSink() {}

  /** A sink builder writing into a new Iceberg warehouse at the benchmark's table path. */
  static TableSinkBuilder upsertTable(String recordKey, String[] partitionFields, int parallelism) {
    return (rows, rowType, options) -> {
      String warehouse = options.get("path");
      List<String> equality = new ArrayList<>();
      equality.add(recordKey);
      equality.addAll(List.of(partitionFields));
      create(warehouse, rowType, equality, partitionFields);
      TableLoader table = TableLoader.fromCatalog(catalogLoader(warehouse), TABLE);
      return FlinkSink.forRowData(rows).tableLoader(table).upsert(true).equalityFieldColumns(equality)
          .writeParallelism(parallelism).uidPrefix("iceberg").append();
    };
  }

  private static void create(String warehouse, RowType rowType, List<String> equality, String[] partitionFields) {
    Schema converted = FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(rowType));
    // identifier fields must be required columns
    List<Types.NestedField> fields = new ArrayList<>();
    Set<Integer> identifiers = new HashSet<>();
    for (Types.NestedField field : converted.columns()) {
      if (equality.contains(field.name())) {
        fields.add(Types.NestedField.required(field.fieldId(), field.name(), field.type()));
        identifiers.add(field.fieldId());
      } else {
        fields.add(field);
      }
    }
    Schema schema = new Schema(fields, identifiers);
    PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
    for (String field : partitionFields) {
      spec.identity(field);
    }
    try (HadoopCatalog catalog = catalog(warehouse)) {
      catalog.createTable(TABLE, schema, spec.build(), Map.of(TableProperties.FORMAT_VERSION, "2"));
    } catch (IOException e) {
      throw new IllegalStateException("cannot create the Iceberg table in " + warehouse, e);
    }
  }

  /** Rows and distinct record keys a snapshot read of the Iceberg table at {@code warehouse} returns. */
  static long[] rowsAndKeys(String warehouse, String recordKey) throws IOException {
    try (HadoopCatalog catalog = catalog(warehouse)) {
      Table table = catalog.loadTable(TABLE);
      Set<String> keys = new HashSet<>();
      long rows = 0;
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).select(recordKey).build()) {
        for (Record record : records) {
          keys.add(record.getField(recordKey).toString());
          rows++;
        }
      }
      return new long[] {rows, keys.size()};
    }
  }

  /** The table's snapshots (one per committed checkpoint) and data and delete files of its current snapshot. */
  static String describe(String warehouse) throws IOException {
    try (HadoopCatalog catalog = catalog(warehouse)) {
      Table table = catalog.loadTable(TABLE);
      int snapshots = 0;
      for (var ignored : table.snapshots()) {
        snapshots++;
      }
      Map<String, String> summary = table.currentSnapshot().summary();
      return snapshots + " snapshots; current: " + summary.getOrDefault("total-data-files", "?") + " data files, "
          + summary.getOrDefault("total-delete-files", "?") + " delete files, "
          + summary.getOrDefault("total-equality-deletes", "?") + " equality deletes, "
          + summary.getOrDefault("total-files-size", "?") + " bytes";
    }
  }

  private static CatalogLoader catalogLoader(String warehouse) {
    return CatalogLoader.hadoop("bench", new Configuration(), Map.of("warehouse", warehouse));
  }

  private static HadoopCatalog catalog(String warehouse) {
    HadoopCatalog catalog = new HadoopCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize("bench", Map.of("warehouse", warehouse));
    return catalog;
  }
}
