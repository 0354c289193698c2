package io.riverbed.flink.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidRecordException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * The direct encoder writes, for every row, the bytes Avro's {@code GenericDatumWriter} writes for
 * the record {@link RowDataToAvro} builds of it: every type the table schema maps, nulls at every
 * nullable level, nested rows, arrays and maps; rows as generic and as binary rows.
 */
class RowDataAvroEncoderTest {
  static final RowType ALL_TYPES = (RowType) DataTypes.ROW(
      DataTypes.FIELD("key", DataTypes.STRING().notNull()),
      DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
      DataTypes.FIELD("tiny", DataTypes.TINYINT()),
      DataTypes.FIELD("small", DataTypes.SMALLINT()),
      DataTypes.FIELD("i", DataTypes.INT()),
      DataTypes.FIELD("n", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("l", DataTypes.BIGINT()),
      DataTypes.FIELD("f", DataTypes.FLOAT()),
      DataTypes.FIELD("d", DataTypes.DOUBLE()),
      DataTypes.FIELD("dn", DataTypes.DOUBLE().notNull()),
      DataTypes.FIELD("s", DataTypes.STRING()),
      DataTypes.FIELD("c", DataTypes.CHAR(3)),
      DataTypes.FIELD("b", DataTypes.BYTES()),
      DataTypes.FIELD("bin", DataTypes.BINARY(4)),
      DataTypes.FIELD("day", DataTypes.DATE()),
      DataTypes.FIELD("time", DataTypes.TIME(3)),
      DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
      DataTypes.FIELD("ts6", DataTypes.TIMESTAMP(6)),
      DataTypes.FIELD("ltz3", DataTypes.TIMESTAMP_LTZ(3)),
      DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
      DataTypes.FIELD("dec", DataTypes.DECIMAL(10, 2)),
      DataTypes.FIELD("wide", DataTypes.DECIMAL(38, 10)),
      DataTypes.FIELD("rider", DataTypes.ROW(
          DataTypes.FIELD("id", DataTypes.STRING()),
          DataTypes.FIELD("score", DataTypes.INT().notNull()),
          DataTypes.FIELD("home", DataTypes.ROW(DataTypes.FIELD("lat", DataTypes.DOUBLE()))))),
      DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
      DataTypes.FIELD("counts", DataTypes.ARRAY(DataTypes.INT().notNull())),
      DataTypes.FIELD("stops", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("at", DataTypes.BIGINT())))),
      DataTypes.FIELD("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
      DataTypes.FIELD("nested", DataTypes.MAP(DataTypes.STRING().notNull(),
          DataTypes.ARRAY(DataTypes.DECIMAL(5, 1))))).getLogicalType();

  @Test
  void rowsOfEveryTypeEncodeToTheBytesOfGenericDatumWriter() throws IOException {
    Schema schema = RowTypeAvroConverter.toAvroSchema(ALL_TYPES, "all");
    RowDataAvroEncoder encoder = RowDataAvroEncoder.of(ALL_TYPES, schema).orElseThrow();
    RowDataToAvro converter = RowDataToAvro.of(ALL_TYPES, schema);
    RowDataSerializer binary = new RowDataSerializer(ALL_TYPES);
    Random random = new Random(14);
    List<RowData> rows = new ArrayList<>();
    rows.add(fullRow());
    rows.add(nullRow());
    for (int i = 0; i < 500; i++) {
      rows.add(randomRow(random));
    }
    for (RowData row : rows) {
      byte[] expected = genericBytes(schema, converter.convert(row));
      assertThat(encoder.encode(row)).as("generic row %s", row).isEqualTo(expected);
      assertThat(encoder.encode(binary.toBinaryRow(row).copy())).as("binary row %s", row).isEqualTo(expected);
    }
  }

  /** A user's schema may put null second in a union; the branch indexes follow the schema. */
  @Test
  void unionsWithNullSecondEncodeTheirBranchIndexesAsTheSchemaHasThem() throws IOException {
    RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.STRING()),
        DataTypes.FIELD("ts", DataTypes.BIGINT())).getLogicalType();
    Schema schema = SchemaBuilder.record("r").fields()
        .name("id").type().unionOf().stringType().and().nullType().endUnion().noDefault()
        .name("ts").type().unionOf().nullType().and().longType().endUnion().nullDefault()
        .endRecord();
    RowDataAvroEncoder encoder = RowDataAvroEncoder.of(type, schema).orElseThrow();
    for (RowData row : List.of(GenericRowData.of(StringData.fromString("a"), 3L), GenericRowData.of(null, null))) {
      assertThat(encoder.encode(row)).isEqualTo(genericBytes(schema, RowDataToAvro.of(type, schema).convert(row)));
    }
  }

  @Test
  void schemasWithShapesItDoesNotCoverAreLeftToTheConverter() {
    RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("v", DataTypes.BIGINT())).getLogicalType();
    Schema threeWay = SchemaBuilder.record("r").fields()
        .name("v").type().unionOf().nullType().and().longType().and().stringType().endUnion().nullDefault()
        .endRecord();
    Schema intForBigint = SchemaBuilder.record("r").fields().name("v").type().intType().noDefault().endRecord();
    assertThat(RowDataAvroEncoder.of(type, threeWay)).isEmpty();
    assertThat(RowDataAvroEncoder.of(type, intForBigint)).isEmpty();
  }

  @Test
  void aNullInAFieldTheSchemaRequiresFailsNamingTheField() {
    RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("v", DataTypes.BIGINT())).getLogicalType();
    Schema required = SchemaBuilder.record("r").fields().name("v").type().longType().noDefault().endRecord();
    RowDataAvroEncoder encoder = RowDataAvroEncoder.of(type, required).orElseThrow();
    assertThatThrownBy(() -> encoder.encode(GenericRowData.of((Object) null)))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("'v'");
  }

  private static byte[] genericBytes(Schema schema, GenericRecord record) throws IOException {
    var bytes = new ByteArrayOutputStream();
    BinaryEncoder out = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, out);
    out.flush();
    return bytes.toByteArray();
  }

  private static RowData fullRow() {
    LocalDateTime at = LocalDateTime.of(2025, 1, 2, 3, 4, 5, 123_456_789);
    Map<StringData, Object> attrs = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      attrs.put(StringData.fromString("attr-" + i), i % 7 == 0 ? null : (long) i * 1_000_003L);
    }
    Map<StringData, Object> nested = new LinkedHashMap<>();
    nested.put(StringData.fromString("x"), new GenericArrayData(new Object[] {dec("-1.5", 5, 1), null}));
    nested.put(StringData.fromString("y"), null);
    return GenericRowData.of(StringData.fromString("k-ü✓"), true, (byte) -7, (short) 300, -42, Long.MIN_VALUE, 1L << 40,
        1.5f, Double.NaN, -0.0d, StringData.fromString("Grüße, 世界"), StringData.fromString("abc"),
        new byte[] {0, -1, 127}, new byte[] {1, 2, 3, 4}, -719_162, 86_399_999,
        TimestampData.fromLocalDateTime(at), TimestampData.fromLocalDateTime(at),
        TimestampData.fromEpochMillis(-1_234_567L, 999_999), TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000),
        dec("-12.34", 10, 2), dec("-1234567890123456789012345678.0123456789", 38, 10),
        GenericRowData.of(StringData.fromString("r1"), 9, GenericRowData.of(52.5)),
        new GenericArrayData(new Object[] {StringData.fromString("a"), null, StringData.fromString("")}),
        new GenericArrayData(new int[] {1, -2, Integer.MAX_VALUE}),
        new GenericArrayData(new Object[] {GenericRowData.of(5L), GenericRowData.of((Object) null), null}),
        new GenericMapData(attrs), new GenericMapData(nested));
  }

  private static RowData nullRow() {
    GenericRowData row = new GenericRowData(ALL_TYPES.getFieldCount());
    row.setField(0, StringData.fromString(""));
    row.setField(5, 0L);
    row.setField(9, 0.0d);
    return row;
  }

  /** Each nullable field null with probability 1/4, values across their ranges, empty and large collections. */
  private static RowData randomRow(Random r) {
    GenericRowData row = new GenericRowData(ALL_TYPES.getFieldCount());
    for (int i = 0; i < ALL_TYPES.getFieldCount(); i++) {
      LogicalType type = ALL_TYPES.getTypeAt(i);
      row.setField(i, type.isNullable() && r.nextInt(4) == 0 ? null : randomValue(ALL_TYPES.getFieldNames().get(i), r));
    }
    return row;
  }

  private static Object randomValue(String field, Random r) {
    return switch (field) {
      case "key", "s" -> StringData.fromString(randomString(r));
      case "flag" -> r.nextBoolean();
      case "tiny" -> (byte) r.nextInt();
      case "small" -> (short) r.nextInt();
      case "i", "day", "time" -> field.equals("i") ? r.nextInt() : r.nextInt(86_400_000);
      case "n", "l" -> r.nextLong() >> r.nextInt(64);
      case "f" -> r.nextFloat() * (r.nextBoolean() ? 1e30f : -1e-30f);
      case "d", "dn" -> r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20);
      case "c" -> StringData.fromString("" + (char) ('a' + r.nextInt(26)) + (char) ('a' + r.nextInt(26)) + "z");
      case "b" -> randomBytes(r, r.nextInt(20));
      case "bin" -> randomBytes(r, 4);
      case "ts3", "ts6", "ltz3", "ltz6" -> TimestampData.fromEpochMillis(r.nextLong() % 4_000_000_000_000L, r.nextInt(1_000_000));
      case "dec" -> dec(new BigDecimal(BigInteger.valueOf(r.nextLong() % 10_000_000_000L), 2).toPlainString(), 10, 2);
      case "wide" -> dec(new BigDecimal(new BigInteger(120, r).subtract(BigInteger.ONE.shiftLeft(119)), 10)
          .remainder(BigDecimal.TEN.pow(28)).setScale(10).toPlainString(), 38, 10);
      case "rider" -> GenericRowData.of(r.nextBoolean() ? null : StringData.fromString(randomString(r)), r.nextInt(),
          r.nextBoolean() ? null : GenericRowData.of(r.nextBoolean() ? null : r.nextDouble()));
      case "tags" -> new GenericArrayData(randomList(r, () -> r.nextInt(5) == 0 ? null : StringData.fromString(randomString(r))).toArray());
      case "counts" -> new GenericArrayData(randomList(r, r::nextInt).stream().mapToInt(Integer::intValue).toArray());
      case "stops" -> new GenericArrayData(randomList(r, () -> r.nextInt(5) == 0 ? null
          : GenericRowData.of(r.nextBoolean() ? null : r.nextLong())).toArray());
      case "attrs" -> {
        Map<StringData, Object> m = new HashMap<>();
        for (Object k : randomList(r, () -> StringData.fromString(randomString(r)))) {
          m.put((StringData) k, r.nextInt(4) == 0 ? null : r.nextLong());
        }
        yield new GenericMapData(m);
      }
      case "nested" -> {
        Map<StringData, Object> m = new HashMap<>();
        for (Object k : randomList(r, () -> StringData.fromString("k" + r.nextInt(1000)))) {
          m.put((StringData) k, r.nextInt(4) == 0 ? null : new GenericArrayData(randomList(r,
              () -> r.nextInt(3) == 0 ? null : dec(BigDecimal.valueOf(r.nextInt(99_999) - 49_999, 1).toPlainString(), 5, 1))
              .toArray()));
        }
        yield new GenericMapData(m);
      }
      default -> throw new IllegalArgumentException(field);
    };
  }

  private static <T> List<T> randomList(Random r, java.util.function.Supplier<T> element) {
    int size = r.nextInt(10) == 0 ? 0 : r.nextInt(r.nextInt(10) == 0 ? 200 : 6);
    List<T> out = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      out.add(element.get());
    }
    return out;
  }

  private static String randomString(Random r) {
    StringBuilder sb = new StringBuilder();
    int length = r.nextInt(r.nextInt(10) == 0 ? 300 : 20);
    for (int i = 0; i < length; i++) {
      int kind = r.nextInt(10);
      sb.appendCodePoint(kind < 6 ? 'a' + r.nextInt(26) : kind < 8 ? 0xA0 + r.nextInt(0x700) : kind < 9
          ? 0x4E00 + r.nextInt(0x5000) : 0x1F600 + r.nextInt(0x50));
    }
    return sb.toString();
  }

  private static byte[] randomBytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  private static DecimalData dec(String value, int precision, int scale) {
    return DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale);
  }
}
