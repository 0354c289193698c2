package io.riverbed.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

class JsonRowConverterTest {
  private static RowType rowType(DataTypes.Field... fields) {
    return (RowType) DataTypes.ROW(fields).getLogicalType();
  }

  private static final RowType ORDERS = rowType(
      DataTypes.FIELD("id", DataTypes.STRING().notNull()),
      DataTypes.FIELD("qty", DataTypes.INT()),
      DataTypes.FIELD("ts", DataTypes.BIGINT()),
      DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
      DataTypes.FIELD("ok", DataTypes.BOOLEAN()),
      DataTypes.FIELD("day", DataTypes.DATE()),
      DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)),
      DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
      DataTypes.FIELD("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())),
      DataTypes.FIELD("customer", DataTypes.ROW(
          DataTypes.FIELD("name", DataTypes.STRING()),
          DataTypes.FIELD("address", DataTypes.ROW(DataTypes.FIELD("zip", DataTypes.INT()))))));

  @Test
  void convertsEveryTypeByFieldName() {
    RowData row = JsonRowConverter.of(ORDERS).convert("""
        {"qty": 3, "id": "o1", "ts": 1700000000000, "price": "12.345", "ok": true, "day": "2024-05-01",
         "at": "2024-05-01 10:00:00.250", "tags": ["a", null], "attrs": {"w": 1.5},
         "customer": {"name": "Ann", "address": {"zip": "12345"}}, "ignored": [1]}""");
    assertThat(row.getString(0).toString()).isEqualTo("o1");
    assertThat(row.getInt(1)).isEqualTo(3);
    assertThat(row.getLong(2)).isEqualTo(1_700_000_000_000L);
    assertThat(row.getDecimal(3, 10, 2).toBigDecimal()).isEqualTo(new BigDecimal("12.35"));
    assertThat(row.getBoolean(4)).isTrue();
    assertThat(row.getInt(5)).isEqualTo(19844);
    assertThat(row.getTimestamp(6, 3).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 5, 1, 10, 0, 0, 250_000_000));
    assertThat(row.getArray(7).size()).isEqualTo(2);
    assertThat(row.getArray(7).isNullAt(1)).isTrue();
    assertThat(row.getMap(8).valueArray().getDouble(0)).isEqualTo(1.5);
    assertThat(row.getRow(9, 2).getRow(1, 1).getInt(0)).isEqualTo(12345);
  }

  @Test
  void keepingNewFieldsPutsTheTopLevelFieldsBeyondTheRowTypeIntoALastColumnAsJson() {
    JsonRowConverter converter = JsonRowConverter.keepingNewFields(ORDERS);
    RowData row = converter.convert("""
        {"id": "o1", "qty": 2, "coupon": "C1", "customer": {"name": "Ann", "vip": true}, "extra": {"a": [1, null]}}""");
    assertThat(row.getArity()).isEqualTo(ORDERS.getFieldCount() + 1);
    assertThat(row.getInt(1)).isEqualTo(2);
    assertThat(row.getString(ORDERS.getFieldCount()).toString())
        .as("nested fields beyond a row column are not new columns").isEqualTo("{\"coupon\":\"C1\",\"extra\":{\"a\":[1,null]}}");
    assertThat(converter.convert("{\"id\": \"o2\"}").isNullAt(ORDERS.getFieldCount())).isTrue();
  }

  @Test
  void missingAndNullFieldsAreNull() {
    RowData row = JsonRowConverter.of(ORDERS).convert("{\"id\": \"o1\", \"qty\": null}");
    assertThat(row.isNullAt(1)).isTrue();
    assertThat(row.isNullAt(9)).isTrue();
  }

  @Test
  void timestampsWithAnOffsetAreTakenInUtcAndNumbersAsEpochMillis() {
    RowType t = rowType(DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)));
    assertThat(JsonRowConverter.of(t).convert("{\"at\": \"2024-05-01T12:00:00+02:00\"}").getTimestamp(0, 3).toLocalDateTime())
        .isEqualTo(LocalDateTime.of(2024, 5, 1, 10, 0));
    assertThat(JsonRowConverter.of(t).convert("{\"at\": 0}").getTimestamp(0, 3).getMillisecond()).isZero();
  }

  @Test
  void errorsNameTheFieldPath() {
    JsonRowConverter c = JsonRowConverter.of(ORDERS);
    assertThatThrownBy(() -> c.convert("{\"id\": \"o1\", \"qty\": \"many\"}"))
        .isInstanceOf(BadRecordException.class).hasMessage("field 'qty': expected an integer, got \"many\"");
    assertThatThrownBy(() -> c.convert("{\"id\": \"o1\", \"customer\": {\"address\": {\"zip\": true}}}"))
        .hasMessage("field 'customer.address.zip': expected an integer, got true");
    assertThatThrownBy(() -> c.convert("{\"id\": \"o1\", \"qty\": 3000000000}"))
        .hasMessageContaining("field 'qty': 3000000000 is out of range");
    assertThatThrownBy(() -> c.convert("{\"id\": \"o1\", \"price\": 123456789012}"))
        .hasMessage("field 'price': 123456789012 does not fit DECIMAL(10, 2)");
    assertThatThrownBy(() -> c.convert("{\"qty\": 1}"))
        .hasMessage("field 'id' is NOT NULL but missing from the record");
    assertThatThrownBy(() -> c.convert("{\"id\": \"o1\", \"day\": \"yesterday\"}"))
        .hasMessage("field 'day': expected a date (yyyy-MM-dd), got \"yesterday\"");
  }

  @Test
  void malformedJsonAndNonObjectsAreBadRecords() {
    JsonRowConverter c = JsonRowConverter.of(ORDERS);
    assertThatThrownBy(() -> c.convert("{\"id\": \"o1\""))
        .isInstanceOf(BadRecordException.class).hasMessageStartingWith("not valid JSON");
    assertThatThrownBy(() -> c.convert("{\"id\": \"o1\"} trailing"))
        .isInstanceOf(BadRecordException.class).hasMessageStartingWith("not valid JSON");
    assertThatThrownBy(() -> c.convert("[1, 2]"))
        .hasMessage("expected a JSON object, got [1,2]");
  }

  @Test
  void stringsTakeAnyScalarAndNestedJsonAsText() {
    RowType t = rowType(DataTypes.FIELD("s", DataTypes.STRING()));
    assertThat(JsonRowConverter.of(t).convert("{\"s\": 12}").getString(0).toString()).isEqualTo("12");
    assertThat(JsonRowConverter.of(t).convert("{\"s\": {\"a\": 1}}").getString(0).toString()).isEqualTo("{\"a\":1}");
  }

  @Test
  void converterIsSerializable() throws Exception {
    JsonRowConverter copy = InstantiationUtil.clone(JsonRowConverter.of(ORDERS));
    assertThat(copy.convert("{\"id\": \"x\", \"qty\": 1}").getInt(1)).isEqualTo(1);
  }
}
