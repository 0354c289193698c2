package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
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
}
