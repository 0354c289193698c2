package io.riverbed.flink.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class RowDataToAvroTest {
  static final RowType TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("uuid", DataTypes.STRING().notNull()),
      DataTypes.FIELD("ts", DataTypes.BIGINT()),
      DataTypes.FIELD("fare", DataTypes.DECIMAL(10, 2)),
      DataTypes.FIELD("at", DataTypes.TIMESTAMP(6)),
      DataTypes.FIELD("at_ms", DataTypes.TIMESTAMP(3)),
      DataTypes.FIELD("day", DataTypes.DATE()),
      DataTypes.FIELD("rider", DataTypes.ROW(DataTypes.FIELD("id", DataTypes.STRING()))),
      DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING()))).getLogicalType();

  @Test
  void schemaFollowsHudiNamingAndNullability() {
    Schema s = RowTypeAvroConverter.toAvroSchema(TYPE, "trips");
    assertThat(s.getFullName()).isEqualTo("hoodie.trips.trips_record");
    assertThat(s.getField("uuid").schema().getType()).isEqualTo(Schema.Type.STRING);
    assertThat(s.getField("ts").schema().getTypes().get(0).getType()).isEqualTo(Schema.Type.NULL);
    assertThat(s.getField("ts").defaultVal()).isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
    Schema fare = s.getField("fare").schema().getTypes().get(1);
    assertThat(fare.getType()).isEqualTo(Schema.Type.FIXED);
    assertThat(fare.getFixedSize()).isEqualTo(5);
    assertThat(fare.getLogicalType()).isEqualTo(LogicalTypes.decimal(10, 2));
    assertThat(s.getField("at").schema().getTypes().get(1).getLogicalType()).isInstanceOf(LogicalTypes.TimestampMicros.class);
    assertThat(s.getField("at_ms").schema().getTypes().get(1).getLogicalType()).isInstanceOf(LogicalTypes.TimestampMillis.class);
  }

  @Test
  @SuppressWarnings("unchecked")
  void convertsEveryFieldAndKeepsNulls() {
    Schema s = RowTypeAvroConverter.toAvroSchema(TYPE, "trips");
    LocalDateTime at = LocalDateTime.of(2025, 1, 2, 3, 4, 5, 123_456_000);
    GenericRowData row = GenericRowData.of(StringData.fromString("k1"), 7L,
        DecimalData.fromBigDecimal(new BigDecimal("-12.34"), 10, 2), TimestampData.fromLocalDateTime(at),
        TimestampData.fromLocalDateTime(at), 3, GenericRowData.of(StringData.fromString("r1")),
        new GenericArrayData(new Object[] {StringData.fromString("a"), null}));
    GenericRecord r = RowDataToAvro.of(TYPE, s).convert(row);
    assertThat(r.get("uuid")).isEqualTo("k1");
    assertThat(r.get("ts")).isEqualTo(7L);
    byte[] fare = ((GenericData.Fixed) r.get("fare")).bytes();
    assertThat(new BigDecimal(new BigInteger(fare), 2)).isEqualByComparingTo("-12.34");
    long micros = at.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L + 123_456L;
    assertThat(r.get("at")).isEqualTo(micros);
    assertThat(r.get("at_ms")).isEqualTo(micros / 1000);
    assertThat(r.get("day")).isEqualTo(3);
    assertThat(((GenericRecord) r.get("rider")).get("id")).isEqualTo("r1");
    assertThat((List<Object>) r.get("tags")).containsExactly("a", null);

    GenericRowData nulls = GenericRowData.of(StringData.fromString("k2"), null, null, null, null, null, null, null);
    GenericRecord n = RowDataToAvro.of(TYPE, s).convert(nulls);
    assertThat(n.get("ts")).isNull();
    assertThat(new GenericData().validate(s, n)).isTrue();
    assertThat(new GenericData().validate(s, r)).isTrue();
  }

  @Test
  void nonStringMapKeysAreRejectedNamingTheColumn() {
    RowType t = (RowType) DataTypes.ROW(DataTypes.FIELD("m", DataTypes.MAP(DataTypes.INT(), DataTypes.STRING()))).getLogicalType();
    assertThatThrownBy(() -> RowTypeAvroConverter.toAvroSchema(t, "x")).isInstanceOf(TableException.class).hasMessageContaining("'m'");
  }

  @Test
  void timeIsStoredInMillisecondsAndFinerTimeIsRefusedNamingTheColumn() {
    RowType millis = (RowType) DataTypes.ROW(DataTypes.FIELD("t", DataTypes.TIME(3))).getLogicalType();
    assertThat(RowTypeAvroConverter.toAvroSchema(millis, "x").getField("t").schema().getTypes().get(1).getLogicalType())
        .isEqualTo(org.apache.avro.LogicalTypes.timeMillis());
    RowType micros = (RowType) DataTypes.ROW(DataTypes.FIELD("t6", DataTypes.TIME(6))).getLogicalType();
    assertThatThrownBy(() -> RowTypeAvroConverter.toAvroSchema(micros, "x")).isInstanceOf(TableException.class)
        .hasMessageContaining("'t6'").hasMessageContaining("TIME(3)");
  }
}
