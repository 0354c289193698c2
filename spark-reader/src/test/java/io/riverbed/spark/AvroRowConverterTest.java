package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class AvroRowConverterTest {
  static final Schema DECIMAL = LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES));
  static final Schema TS = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
  static final Schema DATE = LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
  static final Schema RIDER = SchemaBuilder.record("rider").fields().requiredString("id").endRecord();
  static final Schema SCHEMA = SchemaBuilder.record("t").fields()
      .optionalString("uuid")
      .requiredLong("ts")
      .name("fare").type(DECIMAL).noDefault()
      .name("at").type(TS).noDefault()
      .name("day").type(DATE).noDefault()
      .name("rider").type(RIDER).noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .endRecord();

  @Test
  void sparkSchemaFollowsAvroTypesAndNullability() {
    StructType st = AvroSchemaConverter.toStructType(SCHEMA);
    assertThat(st.apply("uuid").nullable()).isTrue();
    assertThat(st.apply("ts").nullable()).isFalse();
    assertThat(st.apply("fare").dataType()).isEqualTo(DataTypes.createDecimalType(10, 2));
    assertThat(st.apply("at").dataType()).isEqualTo(DataTypes.TimestampType);
    assertThat(st.apply("day").dataType()).isEqualTo(DataTypes.DateType);
    assertThat(st.apply("rider").dataType()).isInstanceOf(StructType.class);
  }

  @Test
  void convertsARecordToTheRequestedColumnsInOrder() {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("uuid", "k1");
    r.put("ts", 7L);
    r.put("fare", new Conversions.DecimalConversion().toBytes(new BigDecimal("12.34"), DECIMAL, LogicalTypes.decimal(10, 2)));
    r.put("at", 1_000_000L);
    r.put("day", 3);
    GenericRecord rider = new GenericData.Record(RIDER);
    rider.put("id", "r9");
    r.put("rider", rider);
    r.put("tags", List.of("a", "b"));

    InternalRow row = AvroRowConverter.of(SCHEMA, List.of("ts", "uuid", "fare", "rider", "missing", "tags")).apply(r);
    assertThat(row.getLong(0)).isEqualTo(7L);
    assertThat(row.getUTF8String(1).toString()).isEqualTo("k1");
    assertThat(row.getDecimal(2, 10, 2).toJavaBigDecimal()).isEqualByComparingTo("12.34");
    assertThat(row.getStruct(3, 1).getUTF8String(0).toString()).isEqualTo("r9");
    assertThat(row.isNullAt(4)).isTrue();
    assertThat(row.getArray(5).numElements()).isEqualTo(2);
  }

  @Test
  void decimalsOfUpTo18DigitsAreReadFromTheirUnscaledBytes() {
    for (String value : List.of("0", "1.5", "-1.5", "123456789012345.678", "-999999999999999.999", "0.001", "-0.001")) {
      for (int size : new int[] {8, 9, 12}) {
        Schema fixed = LogicalTypes.decimal(18, 3).addToSchema(Schema.createFixed("f" + size, null, null, size));
        GenericFixed encoded = new Conversions.DecimalConversion()
            .toFixed(new BigDecimal(value).setScale(3), fixed, LogicalTypes.decimal(18, 3));
        Object converted = AvroRowConverter.converterFor(fixed).apply(encoded);
        assertThat(((Decimal) converted).toJavaBigDecimal()).as(value + " in " + size + " bytes")
            .isEqualByComparingTo(value);
      }
      Schema bytes = LogicalTypes.decimal(18, 3).addToSchema(Schema.create(Schema.Type.BYTES));
      ByteBuffer buffer = new Conversions.DecimalConversion()
          .toBytes(new BigDecimal(value).setScale(3), bytes, LogicalTypes.decimal(18, 3));
      ByteBuffer inLargerArray = ByteBuffer.allocate(buffer.remaining() + 6);
      inLargerArray.position(3);
      inLargerArray.put(buffer.duplicate());
      inLargerArray.position(3).limit(3 + buffer.remaining());
      for (ByteBuffer b : List.of(buffer, inLargerArray.slice(), inLargerArray)) {
        Object converted = AvroRowConverter.converterFor(bytes).apply(b);
        assertThat(((Decimal) converted).toJavaBigDecimal()).as(value + " as bytes")
            .isEqualByComparingTo(value);
      }
    }
    Schema wide = LogicalTypes.decimal(30, 2).addToSchema(Schema.createFixed("wide", null, null, 13));
    GenericFixed big = new Conversions.DecimalConversion()
        .toFixed(new BigDecimal("-1234567890123456789012345.67"), wide, LogicalTypes.decimal(30, 2));
    assertThat(((Decimal) AvroRowConverter.converterFor(wide).apply(big)).toJavaBigDecimal())
        .isEqualByComparingTo("-1234567890123456789012345.67");
  }

  @Test
  void avroStringsBecomeSparkStringsByteForByte() {
    Utf8 reused = new Utf8("ñu and more");
    reused.setByteLength(3); // "ñu": the buffer is longer than the value, as in a reused Utf8
    UTF8String converted = AvroRowConverter.utf8String(reused);
    assertThat(converted.toString()).isEqualTo("ñu");
    reused.getBytes()[2] = 'x';
    assertThat(converted.toString()).as("a copy, not a view of the reusable buffer").isEqualTo("ñu");
    assertThat(AvroRowConverter.utf8String("plain ü").toString()).isEqualTo("plain ü");
  }
}
