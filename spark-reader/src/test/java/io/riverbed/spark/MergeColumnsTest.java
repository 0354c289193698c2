package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValues;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * A merge in Spark rows takes a base row's ordering value with the Java class and value the
 * core's Avro merge takes from the same record, so the payload rule compares alike.
 */
class MergeColumnsTest {
  static final VectorizedSettings SETTINGS = new VectorizedSettings(true, true, 4096, false, "UTC", false, 100, true);

  @Test
  void orderingValuesOfRowsEqualThoseOfTheAvroRecords() {
    assertSameOrdering(Schema.create(Schema.Type.LONG), 42L, 42L);
    assertSameOrdering(Schema.create(Schema.Type.INT), 7, 7);
    assertSameOrdering(Schema.create(Schema.Type.DOUBLE), 2.5, 2.5);
    assertSameOrdering(Schema.create(Schema.Type.STRING), "b", UTF8String.fromString("b"));
    assertSameOrdering(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT)), 19000, 19000);
    assertSameOrdering(LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES)),
        ByteBuffer.wrap(new BigDecimal("123.45").unscaledValue().toByteArray()),
        Decimal.apply(new BigDecimal("123.45")));
  }

  @Test
  void aNullOrderingValueIsNullAsInTheAvroMerge() {
    Schema table = table(Schema.create(Schema.Type.LONG));
    MergeColumns columns = MergeColumns.of(new StructType(), table, Optional.of("ts"), true, SETTINGS);
    assertThat(columns.orderingValue(new GenericInternalRow(new Object[] {UTF8String.fromString("k"), null}))).isNull();
  }

  @Test
  void keyAndOrderingColumnsFollowTheScansColumnsOnlyWhenItLacksThem() {
    Schema table = table(Schema.create(Schema.Type.LONG));
    StructType all = AvroSchemaConverter.toStructType(table);
    StructType tsOnly = new StructType().add(all.apply("ts"));
    assertThat(MergeColumns.of(tsOnly, table, Optional.of("ts"), true, SETTINGS).baseSchema().fieldNames())
        .containsExactly("ts", MetaFields.RECORD_KEY);
    assertThat(MergeColumns.of(all, table, Optional.of("ts"), true, SETTINGS).baseSchema()).isEqualTo(all);
    assertThat(MergeColumns.of(new StructType(), table, Optional.of("ts"), false, SETTINGS).baseSchema().fieldNames())
        .containsExactly(MetaFields.RECORD_KEY);
  }

  @Test
  void orderingTypesTheRowsDoNotCarryAsAvroDoesLeaveTheMergeToAvro() {
    Schema millis = LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
    assertThat(MergeColumns.of(new StructType(), table(millis), Optional.of("ts"), true, SETTINGS).vectorizable()).isFalse();
    assertThat(MergeColumns.of(new StructType(), table(millis), Optional.of("ts"), false, SETTINGS).vectorizable()).isTrue();
  }

  private static Schema table(Schema ordering) {
    return SchemaBuilder.record("t").fields()
        .name(MetaFields.RECORD_KEY).type().stringType().noDefault()
        .name("ts").type(ordering).noDefault()
        .endRecord();
  }

  private static void assertSameOrdering(Schema type, Object avroValue, Object sparkValue) {
    Schema table = table(type);
    GenericRecord record = new GenericData.Record(table);
    record.put(MetaFields.RECORD_KEY, "k");
    record.put("ts", avroValue);
    MergeColumns columns = MergeColumns.of(new StructType(), table, Optional.of("ts"), true, SETTINGS);
    assertThat(columns.vectorizable()).isTrue();
    GenericInternalRow row = new GenericInternalRow(new Object[] {UTF8String.fromString("k"), sparkValue});
    Comparable<?> expected = OrderingValues.ofRecordForCombine(record, "ts", "k");
    Comparable<?> actual = columns.orderingValue(row);
    assertThat(columns.recordKey(row)).isEqualTo("k");
    assertThat(actual).isInstanceOf(expected.getClass());
    assertThat(OrderingValues.compare(actual, expected)).as(type.toString()).isZero();
  }
}
