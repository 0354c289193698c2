package io.riverbed.spark;

import io.riverbed.format.query.QueryType;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.TableType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark schema of a table as Hudi 0.15 shows it: the five {@code _hoodie_*} meta columns and
 * the data columns in schema order, the partition columns moved last (in partition-field order,
 * typed as the data has them) where Hudi's reader serves the query from its file index as a
 * partitioned file relation, and in the catalog.
 */
public final class TableSchema {
  private TableSchema() {}

  /**
   * Whether Hudi 0.15's DataFrame reader moves the partition columns last for this query: only for
   * base-file reads through the table's base path (COPY_ON_WRITE snapshots and time travel, and
   * read-optimized queries). MERGE_ON_READ snapshots, incremental queries and reads of a
   * {@code load(path + "/*")} glob keep the columns in schema order.
   */
  public static boolean partitionColumnsLast(TableType type, QueryType query, boolean glob) {
    return !glob && (query == QueryType.READ_OPTIMIZED || (type == TableType.COPY_ON_WRITE && query == QueryType.SNAPSHOT));
  }

  /** The Spark schema of {@code avro} (which carries the meta fields) with partition columns moved last. */
  public static StructType sparkSchema(Schema avro, List<String> partitionFields) {
    StructType all = AvroSchemaConverter.toStructType(avro);
    Set<String> partitionColumns = partitionFields.stream().filter(f -> !f.contains(".")).collect(Collectors.toSet());
    List<StructField> fields = new ArrayList<>();
    for (StructField f : all.fields()) {
      if (!partitionColumns.contains(f.name()) || MetaFields.ALL.contains(f.name())) {
        fields.add(f);
      }
    }
    for (String p : partitionFields) {
      if (partitionColumns.contains(p) && all.getFieldIndex(p).isDefined() && !MetaFields.ALL.contains(p)) {
        fields.add(all.apply(p));
      }
    }
    return new StructType(fields.toArray(StructField[]::new));
  }
}
