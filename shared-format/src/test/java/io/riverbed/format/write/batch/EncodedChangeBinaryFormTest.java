package io.riverbed.format.write.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.record.OrderingValueCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class EncodedChangeBinaryFormTest {
  private static final byte[] DATA = {1, 2, 3, (byte) 0xff};

  @Test
  void anUpsertAndADeleteReadBackAsWritten() throws IOException {
    EncodedChange upsert = new EncodedChange("k-é", "2024/01/01", OrderingValueCodec.encode(7L), DATA, 42);
    EncodedChange delete = new EncodedChange("k2", "", OrderingValueCodec.encode(0L), null, 43);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      upsert.writeTo(out);
      delete.writeTo(out);
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    EncodedChange upsertRead = EncodedChange.readFrom(in);
    EncodedChange deleteRead = EncodedChange.readFrom(in);
    assertThat(in.available()).isZero();

    assertThat(upsertRead.recordKey()).isEqualTo("k-é");
    assertThat(upsertRead.partitionPath()).isEqualTo("2024/01/01");
    assertThat(upsertRead.isDelete()).isFalse();
    assertThat(upsertRead.size()).isEqualTo(upsert.size());
    assertThat(deleteRead.isDelete()).isTrue();
    assertThat(deleteRead.partitionPath()).isEmpty();
    // ordering and sequence survive: the later change (43) wins a tie on ordering, the larger ordering otherwise
    EncodedChange later = new EncodedChange("k-é", "2024/01/01", OrderingValueCodec.encode(7L), DATA, 44);
    assertThat(EncodedChange.precombine(upsertRead, later)).isSameAs(later);
    EncodedChange smaller = new EncodedChange("k-é", "2024/01/01", OrderingValueCodec.encode(6L), DATA, 45);
    assertThat(EncodedChange.precombine(smaller, upsertRead)).isSameAs(upsertRead);
  }

  @Test
  void aRoutedChangeKeepsItsFileIdOrItsAbsence() {
    EncodedChange change = new EncodedChange("k", "p", OrderingValueCodec.encode("b"), DATA, 1);
    TaskWrite.Routed located = TaskWrite.Routed.fromBytes(new TaskWrite.Routed(change, "fg-1").toBytes());
    TaskWrite.Routed unlocated = TaskWrite.Routed.fromBytes(new TaskWrite.Routed(change, null).toBytes());
    assertThat(located.fileId()).isEqualTo("fg-1");
    assertThat(located.change().recordKey()).isEqualTo("k");
    assertThat(unlocated.fileId()).isNull();
    assertThat(new TaskWrite.Routed(change, "fg-1").toBytes()).isEqualTo(new TaskWrite.Routed(located.change(), "fg-1").toBytes());
  }

  @Test
  void bytesThatAreNotAChangeFailNamingWhy() {
    byte[] garbage = {0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xfe, 0};
    assertThatThrownBy(() -> TaskWrite.Routed.fromBytes(garbage))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("9 bytes")
        .cause().hasMessageContaining("not a change's binary form");
  }
}
