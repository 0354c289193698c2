package io.riverbed.format.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.InvalidTableException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class PayloadMergeRuleTest {

  private static final Schema SCHEMA = SchemaBuilder.record("r").fields()
      .optionalString(MetaFields.RECORD_KEY)
      .optionalLong("ts")
      .name(MetaFields.OPERATION).type().optional().stringType()
      .name("day").type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))).noDefault()
      .name("amount").type(LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES))).noDefault()
      .endRecord();

  private static GenericRecord rec(Long ts, String op) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put(MetaFields.RECORD_KEY, "k");
    r.put("ts", ts);
    r.put(MetaFields.OPERATION, op);
    r.put("day", 19000);
    r.put("amount", ByteBuffer.wrap(new BigDecimal("12.34").unscaledValue().toByteArray()));
    return r;
  }

  @Test
  void resolvesThePayloadClassNamesOfHoodieProperties() {
    assertThat(PayloadMergeRule.forPayloadClass("org.apache.hudi.common.model.EventTimeAvroPayload"))
        .isEqualTo(PayloadMergeRule.EVENT_TIME);
    assertThatThrownBy(() -> PayloadMergeRule.forPayloadClass("com.acme.MyPayload"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("com.acme.MyPayload");
  }

  @Test
  void preCombineKeepsOlderOnlyIfStrictlyGreaterAndNeverADeleteMarker() {
    var rule = PayloadMergeRule.OVERWRITE_WITH_LATEST;
    assertThat(rule.preCombineKeepsOlder(5L, false, 4L)).isTrue();
    assertThat(rule.preCombineKeepsOlder(5L, false, 5L)).isFalse();
    assertThat(rule.preCombineKeepsOlder(5L, true, 4L)).isFalse();
    assertThat(rule.preCombineKeepsOlder(new Utf8("b"), false, new Utf8("a"))).isTrue();
  }

  @Test
  void deleteKeepsExistingOnlyForSameClassNonZeroSmallerValue() {
    var rule = PayloadMergeRule.DEFAULT;
    assertThat(rule.deleteKeepsExisting(10L, 9L)).isTrue();
    assertThat(rule.deleteKeepsExisting(10L, 10L)).isFalse();
    assertThat(rule.deleteKeepsExisting(10L, 9)).isFalse();
    assertThat(rule.deleteKeepsExisting(10, 0)).isFalse();
    assertThat(rule.deleteKeepsExisting(new Utf8("b"), "a")).isFalse();
    assertThat(rule.deleteKeepsExisting(5L, 0L)).isTrue();
  }

  @Test
  void overwriteWithLatestLetsTheLogRecordWinAgainstTheBase() {
    GenericRecord base = rec(10L, null);
    GenericRecord log = rec(1L, null);
    assertThat(PayloadMergeRule.OVERWRITE_WITH_LATEST.combineWithBase("k", base, log, "ts")).containsSame(log);
    assertThat(PayloadMergeRule.OVERWRITE_WITH_LATEST.combineWithBase("k", base, rec(1L, "D"), "ts")).isEmpty();
    assertThat(PayloadMergeRule.OVERWRITE_WITH_LATEST.combineWithBase("k", base, null, "ts")).isEmpty();
  }

  @Test
  void eventTimeRulesKeepTheBaseRecordWithGreaterOrderingValue() {
    for (var rule : new PayloadMergeRule[] {PayloadMergeRule.DEFAULT, PayloadMergeRule.EVENT_TIME}) {
      GenericRecord base = rec(10L, null);
      assertThat(rule.combineWithBase("k", base, rec(9L, null), "ts")).containsSame(base);
      GenericRecord tie = rec(10L, null);
      assertThat(rule.combineWithBase("k", base, tie, "ts")).containsSame(tie);
      assertThat(rule.combineWithBase("k", base, rec(11L, "D"), "ts")).isEmpty();
      assertThat(rule.combineWithBase("k", base, rec(9L, "D"), "ts")).containsSame(base);
      GenericRecord noBaseOrdering = rec(null, null);
      GenericRecord log = rec(1L, null);
      assertThat(rule.combineWithBase("k", noBaseOrdering, log, "ts")).containsSame(log);
      assertThat(rule.combineWithBase("k", base, null, "ts")).as("delete-block marker always wins").isEmpty();
    }
  }

  @Test
  void orderingValuesOfLogRecordsAreRawAvroValuesAndNullIsRejected() {
    GenericRecord r = rec(7L, null);
    assertThat(OrderingValues.ofLogRecord(r, "ts", "k")).isEqualTo(7L);
    assertThat(OrderingValues.ofLogRecord(r, "day", "k")).isEqualTo(19000);
    assertThat(OrderingValues.ofLogRecord(r, null, "k")).isEqualTo(0);
    assertThat(OrderingValues.ofLogRecord(r, "missing", "k")).isEqualTo(0);
    assertThatThrownBy(() -> OrderingValues.ofLogRecord(rec(null, null), "ts", "key-42"))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("key-42");
  }

  @Test
  void orderingValuesForCombineConvertDatesAndDecimals() {
    GenericRecord r = rec(7L, null);
    assertThat(OrderingValues.ofRecordForCombine(r, "day", "k")).isEqualTo(LocalDate.ofEpochDay(19000));
    assertThat(OrderingValues.ofRecordForCombine(r, "amount", "k")).isEqualTo(new BigDecimal("12.34"));
    assertThat(OrderingValues.ofRecordForCombine(r, "missing", "k")).isNull();
  }

  @Test
  void comparingDifferentOrderingClassesFailsExceptStrings() {
    assertThat(OrderingValues.compare(new Utf8("a"), "b")).isNegative();
    assertThatThrownBy(() -> OrderingValues.compare(1, 1L)).isInstanceOf(InvalidRecordException.class);
  }
}
