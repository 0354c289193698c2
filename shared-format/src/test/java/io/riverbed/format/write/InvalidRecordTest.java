package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.TableConfig;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;

class InvalidRecordTest {
  static final Schema NULLABLE = SchemaBuilder.record("orders_record").fields()
      .optionalString("id").optionalLong("ts").requiredString("dt").endRecord();
  static final RecordKeyer KEYER = RecordKeyer.forTable(TableConfig.builder("orders")
      .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts").build());

  @Test
  void nullRecordKeyFieldIsRejectedNamingTheFieldAndTheRecord() {
    var record = new GenericData.Record(NULLABLE);
    record.put("ts", 5L);
    record.put("dt", "2024-01-01");
    assertThatThrownBy(() -> KEYER.toWriteRecord(record))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("'id'")
        .hasMessageContaining("\"dt\": \"2024-01-01\"");
  }

  @Test
  void recordKeyFieldMissingFromTheSchemaIsRejectedNamingTheField() {
    Schema noId = SchemaBuilder.record("orders_record").fields().requiredLong("ts").requiredString("dt").endRecord();
    var record = new GenericData.Record(noId);
    record.put("ts", 1L);
    record.put("dt", "2024-01-01");
    assertThatThrownBy(() -> KEYER.toWriteRecord(record))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("'id'");
  }

  @Test
  void nullOrderingValueIsRejectedNamingTheKey() {
    var record = new GenericData.Record(NULLABLE);
    record.put("id", "order-42");
    record.put("dt", "2024-01-01");
    assertThatThrownBy(() -> KEYER.toWriteRecord(record))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("'ts'")
        .hasMessageContaining("'order-42'");
    assertThatThrownBy(() -> WriteRecord.upsert("order-43", "2024-01-01", record, null))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("'order-43'");
  }

  @Test
  void deleteWithoutOrderingValueUsesNaturalOrderAndLosesNoTieToALaterUpsert() {
    WriteRecord delete = WriteRecord.delete("1", "p", null);
    assertThat(delete.orderingValue()).isEqualTo(OrderingValues.NATURAL_ORDER);
    var record = new GenericData.Record(NULLABLE);
    WriteRecord later = WriteRecord.upsert("1", "p", record, 0L);
    assertThat(BatchPrecombiner.pick(delete, later)).isSameAs(later);
    assertThat(BatchPrecombiner.pick(later, delete)).isSameAs(delete);
  }

  @Test
  void precombineKeepsTheLargerOrderingValueAndTheLaterOfTies() {
    var r = new GenericData.Record(NULLABLE);
    WriteRecord a = WriteRecord.upsert("1", "p", r, 5L);
    WriteRecord b = WriteRecord.upsert("1", "p", r, 3L);
    WriteRecord c = WriteRecord.upsert("1", "p", r, 5L);
    WriteRecord other = WriteRecord.upsert("2", "p", r, 1L);
    assertThat(BatchPrecombiner.precombine(List.of(a, other, b))).containsExactly(a, other);
    assertThat(BatchPrecombiner.precombine(List.of(a, c))).singleElement().isSameAs(c);
  }
}
