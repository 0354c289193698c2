package io.riverbed.spark;

import io.riverbed.format.record.MetaFields;
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
 * order (typed as the data has them), and the Avro schema reads use for a subset of columns.
 */
public final class TableSchema {
  private TableSchema() {}

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
