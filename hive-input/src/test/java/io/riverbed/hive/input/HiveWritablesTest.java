package io.riverbed.hive.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspectorUtils;
import org.apache.hadoop.hive.serde2.objectinspector.StructObjectInspector;
import org.apache.hadoop.hive.serde2.typeinfo.StructTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;
import org.apache.hadoop.io.ArrayWritable;
import org.junit.jupiter.api.Test;

/**
 * Rows made by {@link HiveWritables} read back through Hive's own {@code ParquetHiveSerDe} (the
 * serde the synced tables name), for every column type Riverbed writes.
 */
class HiveWritablesTest {
  static final Schema DECIMAL = LogicalTypes.decimal(10, 2).addToSchema(Schema.createFixed("price", null, "t", 5));
  static final Schema DECIMAL_BYTES = LogicalTypes.decimal(20, 4).addToSchema(Schema.create(Schema.Type.BYTES));
  static final Schema MICROS = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
  static final Schema MILLIS = LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
  static final Schema DATE = LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
  static final Schema INNER = SchemaBuilder.record("inner").fields().requiredInt("a").optionalString("b").endRecord();
  static final Schema ROW = SchemaBuilder.record("row").namespace("t").fields()
      .name("price").type(DECIMAL).noDefault()
      .name("big").type(DECIMAL_BYTES).noDefault()
      .name("at").type(MICROS).noDefault()
      .name("at_ms").type(MILLIS).noDefault()
      .name("day").type(DATE).noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .name("counts").type().map().values().intType().noDefault()
      .name("inner").type(INNER).noDefault()
      .name("flag").type().booleanType().noDefault()
      .name("ratio").type().floatType().noDefault()
      .name("amount").type().doubleType().noDefault()
      .name("blob").type().bytesType().noDefault()
      .optionalString("note")
      .endRecord();
  static final String COLUMNS = "price,big,at,at_ms,day,tags,counts,inner,flag,ratio,amount,blob,note";
  static final String TYPES = "decimal(10,2):decimal(20,4):timestamp:timestamp:date:array<string>:map<string,int>:"
      + "struct<a:int,b:string>:boolean:float:double:binary:string";

  static GenericRecord record() {
    GenericRecord inner = new GenericData.Record(INNER);
    inner.put("a", 7);
    inner.put("b", null);
    GenericRecord r = new GenericData.Record(ROW);
    r.put("price", new Conversions.DecimalConversion().toFixed(new BigDecimal("-12.34"), DECIMAL, DECIMAL.getLogicalType()));
    r.put("big", new Conversions.DecimalConversion().toBytes(new BigDecimal("123456789012.5678"), DECIMAL_BYTES,
        DECIMAL_BYTES.getLogicalType()));
    r.put("at", 1_704_164_645_123_456L);
    r.put("at_ms", 1_704_164_645_123L);
    r.put("day", (int) LocalDate.parse("2024-01-02").toEpochDay());
    r.put("tags", List.of("a", "b"));
    r.put("counts", Map.of("k", 1));
    r.put("inner", inner);
    r.put("flag", true);
    r.put("ratio", 0.5f);
    r.put("amount", 2.25d);
    r.put("blob", ByteBuffer.wrap(new byte[] {1, 2}));
    r.put("note", null);
    return r;
  }

  static List<Object> throughHiveSerde(ArrayWritable row) throws Exception {
    Properties props = new Properties();
    props.setProperty("columns", COLUMNS);
    props.setProperty("columns.types", TYPES);
    ParquetHiveSerDe serde = new ParquetHiveSerDe();
    serde.initialize(new Configuration(), props, null);
    StructObjectInspector oi = (StructObjectInspector) serde.getObjectInspector();
    @SuppressWarnings("unchecked")
    List<Object> values = (List<Object>) ObjectInspectorUtils.copyToStandardJavaObject(serde.deserialize(row), oi);
    return values;
  }

  @Test
  void everyColumnTypeReadsBackThroughHivesParquetSerde() throws Exception {
    StructTypeInfo type = (StructTypeInfo) TypeInfoUtils.getTypeInfoFromTypeString("struct<" + structFields() + ">");
    List<Object> values = throughHiveSerde(HiveWritables.struct(record(), ROW, type, "row"));

    assertThat(values.get(0)).hasToString("-12.34");
    assertThat(values.get(1)).hasToString("123456789012.5678");
    assertThat(values.get(2)).hasToString("2024-01-02 03:04:05.123456");
    assertThat(values.get(3)).hasToString("2024-01-02 03:04:05.123");
    assertThat(values.get(4)).hasToString("2024-01-02");
    assertThat(values.get(5)).isEqualTo(List.of("a", "b"));
    assertThat(values.get(6)).isEqualTo(Map.of("k", 1));
    assertThat(values.get(7)).isEqualTo(java.util.Arrays.asList(7, null));
    assertThat(values.subList(8, 11)).containsExactly(true, 0.5f, 2.25d);
    assertThat((byte[]) values.get(11)).containsExactly(1, 2);
    assertThat(values.get(12)).isNull();
  }

  @Test
  void aValueOfTheWrongTypeIsRefusedNamingTheColumn() {
    assertThatThrownBy(() -> HiveWritables.toWritable("x", Schema.create(Schema.Type.STRING),
        TypeInfoUtils.getTypeInfoFromTypeString("int"), "record k1, column qty"))
        .isInstanceOf(HiveInputException.class).hasMessageContaining("record k1, column qty").hasMessageContaining("int");
  }

  private static String structFields() {
    String[] names = COLUMNS.split(",");
    List<org.apache.hadoop.hive.serde2.typeinfo.TypeInfo> types = TypeInfoUtils.getTypeInfosFromTypeString(TYPES);
    StringBuilder fields = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      fields.append(i == 0 ? "" : ",").append(names[i]).append(':').append(types.get(i).getTypeName());
    }
    return fields.toString();
  }
}
