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
 * The Spark schema of a table as Hudi 0.15's reader shows it: the five {@code _hoodie_*} meta
 * columns, the other data columns in schema order, then the partition columns in partition-field
 * order (typed as the data has them), and the Avro schema reads use for a subset of columns. Where
 * Hudi's reader is not its file index relation (a globbed path, an incremental query of a
 * copy-on-write table) it keeps the table schema's order, and so does this one.
 */
public final class TableSchema {
  private TableSchema() {}

  /**
   * Whether Hudi 0.15 shows a query's partition columns last: its file index relation (snapshot,
   * read-optimized and time travel queries of a base path) appends them; a globbed path and a
   * copy-on-write incremental query read the files as they are. Merge-on-read incremental queries
   * keep them last, an order not yet compared with Hudi's.
   */
  public static boolean partitionColumnsLast(QueryType query, TableType table, boolean globbedPath) {
    return !globbedPath && !(query == QueryType.INCREMENTAL && table == TableType.COPY_ON_WRITE);
  }

  /** The Spark schema of {@code avro} (which carries the meta fields), with partition columns moved last if {@code partitionColumnsLast}. */
  public static StructType sparkSchema(Schema avro, List<String> partitionFields, boolean partitionColumnsLast) {
    StructType all = AvroSchemaConverter.toStructType(avro);
    if (!partitionColumnsLast) {
      return all;
    }
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
