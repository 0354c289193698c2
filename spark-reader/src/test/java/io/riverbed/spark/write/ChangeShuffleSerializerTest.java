package io.riverbed.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.write.batch.EncodedChange;
import io.riverbed.format.write.batch.TaskWrite;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

class ChangeShuffleSerializerTest {
  private static final ClassTag<Object> ANY = ClassTag$.MODULE$.apply(Object.class);
  private final SerializerInstance serializer = ChangeShuffleSerializer.INSTANCE.newInstance();

  @Test
  void keysAndChangesReadBackInOrderUntilTheStreamEnds() {
    EncodedChange change = new EncodedChange("key-1", "2024/01/01", OrderingValueCodec.encode(3L), new byte[] {9, 8}, 5);
    EncodedChange delete = new EncodedChange("key-2", "2024/01/01", OrderingValueCodec.encode(0L), null, 6);
    List<Object> written = Arrays.asList("2024/01/01\u0000key-1", change, 3, new TaskWrite.Routed(delete, null),
        "fg-ü", new TaskWrite.Routed(change, "fg-ü"), null, "");
    List<Object> read = readAll(bytesOf(written));

    assertThat(read).hasSize(written.size());
    for (int i = 0; i < written.size(); i++) {
      assertThat(comparable(read.get(i))).as("record %d", i).isEqualTo(comparable(written.get(i)));
    }
  }

  @Test
  void serializedRecordsMayBeMovedAndConcatenated() {
    EncodedChange a = new EncodedChange("a", "p", OrderingValueCodec.encode(1L), new byte[] {1}, 1);
    EncodedChange b = new EncodedChange("b", "p", OrderingValueCodec.encode(2L), new byte[] {2}, 2);
    byte[] first = bytesOf(List.of("a", a));
    byte[] second = bytesOf(List.of("b", b));
    byte[] joined = new byte[first.length + second.length];
    System.arraycopy(second, 0, joined, 0, second.length);
    System.arraycopy(first, 0, joined, second.length, first.length);

    assertThat(readAll(joined).stream().map(ChangeShuffleSerializerTest::comparable).toList())
        .containsExactly("b", comparable(b), "a", comparable(a));
  }

  @Test
  void aValueThatIsNeitherAKeyNorAChangeIsRefusedByItsClass() {
    SerializationStream out = serializer.serializeStream(new ByteArrayOutputStream());
    assertThatThrownBy(() -> out.writeObject(List.of(1), ANY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.util.ImmutableCollections");
  }

  private byte[] bytesOf(List<Object> values) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SerializationStream out = serializer.serializeStream(bytes);
    values.forEach(v -> out.writeObject(v, ANY));
    out.close();
    return bytes.toByteArray();
  }

  private List<Object> readAll(byte[] bytes) {
    List<Object> out = new ArrayList<>();
    serializer.deserializeStream(new ByteArrayInputStream(bytes)).asIterator().foreach(v -> out.add(v));
    return out;
  }

  /** Changes have no equals: compare their binary form. */
  private static Object comparable(Object value) {
    if (value instanceof EncodedChange c) {
      return Arrays.toString(new TaskWrite.Routed(c, "-").toBytes());
    }
    if (value instanceof TaskWrite.Routed r) {
      return Arrays.toString(r.toBytes());
    }
    return value;
  }
}
