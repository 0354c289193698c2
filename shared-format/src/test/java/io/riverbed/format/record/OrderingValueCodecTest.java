package io.riverbed.format.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.InvalidRecordException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class OrderingValueCodecTest {

  @Test
  void everyOrderingTypeRoundTripsToItsNormalForm() {
    List<Comparable<?>> values = List.of(7, -3L, 1.5f, 2.25d, true, "tür", LocalDate.of(2026, 12, 1),
        new BigDecimal("-12.345"), ByteBuffer.wrap(new byte[] {1, 2, 3}));
    for (Comparable<?> v : values) {
      assertThat(OrderingValueCodec.decode(OrderingValueCodec.encode(v))).isEqualTo(v);
    }
  }

  @Test
  void avroStringsAndFixedDecimalsNormalizeToStringAndBytes() {
    assertThat(OrderingValueCodec.decode(OrderingValueCodec.encode(new Utf8("abc")))).isEqualTo("abc");
    var fixed = new GenericData.Fixed(Schema.createFixed("f", null, null, 2), new byte[] {4, 5});
    assertThat(OrderingValueCodec.normalize(fixed)).isEqualTo(ByteBuffer.wrap(new byte[] {4, 5}));
  }

  @Test
  void orderIsKeptAfterARoundTrip() {
    Comparable<?> older = OrderingValueCodec.decode(OrderingValueCodec.encode(2000L));
    assertThat(OrderingValues.laterLoses(older, 7000L)).isFalse();
    assertThat(OrderingValues.laterLoses(OrderingValueCodec.decode(OrderingValueCodec.encode(7000L)), 2000L)).isTrue();
    assertThat(OrderingValues.laterLoses(7000L, 7000L)).as("ties go to the later change").isFalse();
    assertThat(OrderingValues.laterLoses(OrderingValues.NATURAL_ORDER, 5L)).as("incomparable: later wins").isFalse();
  }

  @Test
  void unknownTypesAndDamagedBytesAreClearErrors() {
    assertThatThrownBy(() -> OrderingValueCodec.encode(java.time.Duration.ofSeconds(1)))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("java.time.Duration");
    assertThatThrownBy(() -> OrderingValueCodec.decode(new byte[] {2, 0, 1}))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("truncated");
    assertThatThrownBy(() -> OrderingValueCodec.decode(new byte[] {42}))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("tag 42");
  }
}
