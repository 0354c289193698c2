package io.riverbed.spark;

import io.riverbed.format.query.BaseRowAccess;
import io.riverbed.format.record.MetaFields;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The columns the base file of a slice with logs is decoded with for a merge in Spark rows: the
 * scan's columns first (so a base row that stands is already a row of the scan), then the record
 * key and the ordering field when the scan does not read them; and how the merge takes key and
 * ordering value from such a row, with the Java classes the core's Avro merge compares.
 */
record MergeColumns(StructType baseSchema, int keyOrdinal, int orderingOrdinal, OrderingColumn ordering,
    boolean vectorizable) implements BaseRowAccess<InternalRow> {

  /** An ordering value of a row's column, as {@code OrderingValues.ofRecordForCombine} has it. */
  @FunctionalInterface
  interface OrderingColumn {
    Comparable<?> read(InternalRow row, int ordinal);
  }

  /**
   * @param orderingField the table's ordering field, if it has one
   * @param comparesOrdering true if the merge reads the base row's ordering value
   */
  static MergeColumns of(StructType readSchema, Schema tableSchema, Optional<String> orderingField,
      boolean comparesOrdering, VectorizedSettings settings) {
    StructType table = AvroSchemaConverter.toStructType(tableSchema);
    List<StructField> fields = new ArrayList<>(Arrays.asList(readSchema.fields()));
    int keyOrdinal = ordinalAdding(fields, table, MetaFields.RECORD_KEY);
    int orderingOrdinal = -1;
    OrderingColumn ordering = null;
    boolean supported = true;
    if (comparesOrdering && orderingField.isPresent()) {
      orderingOrdinal = ordinalAdding(fields, table, orderingField.get());
      ordering = orderingColumn(tableSchema.getField(orderingField.get()).schema(),
          table.apply(orderingField.get()).dataType() instanceof DecimalType d ? d : null);
      supported = ordering != null;
    }
    StructType baseSchema = new StructType(fields.toArray(StructField[]::new));
    return new MergeColumns(baseSchema, keyOrdinal, orderingOrdinal, ordering,
        supported && settings.canRead(baseSchema));
  }

  private static int ordinalAdding(List<StructField> fields, StructType table, String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    fields.add(table.apply(name));
    return fields.size() - 1;
  }

  /** The reader of an ordering column of Avro type {@code field}, or null for types this path does not take. */
  private static OrderingColumn orderingColumn(Schema field, DecimalType decimal) {
    Schema s = AvroSchemaConverter.nonNull(field);
    LogicalType logical = s.getLogicalType();
    if (logical instanceof LogicalTypes.Date) {
      return (row, i) -> LocalDate.ofEpochDay(row.getInt(i));
    }
    if (logical instanceof LogicalTypes.Decimal) {
      return (row, i) -> row.getDecimal(i, decimal.precision(), decimal.scale()).toJavaBigDecimal();
    }
    if (logical != null) {
      return null;
    }
    return switch (s.getType()) {
      case INT -> (row, i) -> row.getInt(i);
      case LONG -> (row, i) -> row.getLong(i);
      case FLOAT -> (row, i) -> row.getFloat(i);
      case DOUBLE -> (row, i) -> row.getDouble(i);
      case BOOLEAN -> (row, i) -> row.getBoolean(i);
      case STRING -> (row, i) -> row.getUTF8String(i).toString();
      default -> null;
    };
  }

  @Override
  public String recordKey(InternalRow row) {
    return row.isNullAt(keyOrdinal) ? null : row.getUTF8String(keyOrdinal).toString();
  }

  @Override
  public Comparable<?> orderingValue(InternalRow row) {
    return ordering == null || row.isNullAt(orderingOrdinal) ? null : ordering.read(row, orderingOrdinal);
  }
}
