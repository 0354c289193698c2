package io.riverbed.flink.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The index's key serializer writes exactly Flink's {@link StringSerializer} bytes, and each reads the other's. */
class RecordKeySerializerTest {

  private static List<String> keys() {
    List<String> keys = new ArrayList<>(List.of("", "k", "6ae4b2f0-5b3c-4c1e-9d7a-3f1e2d4c5b6a", "eu/fr/paris\u0000k1",
        "ключ", "鍵", "emoji \uD83D\uDE00", "\u007f\u0080\u07ff\u0800\uffff"));
    keys.add("x".repeat(127));
    keys.add("y".repeat(128));
    keys.add("z".repeat(20_000));
    Random random = new Random(42);
    for (int i = 0; i < 500; i++) {
      StringBuilder b = new StringBuilder();
      int length = random.nextInt(i % 50 == 0 ? 5_000 : 80);
      for (int c = 0; c < length; c++) {
        b.append((char) (random.nextInt(4) == 0 ? random.nextInt(0x10000) : 32 + random.nextInt(95)));
      }
      keys.add(b.toString());
    }
    return keys;
  }

  @Test
  void writesTheBytesOfFlinksStringSerializerAndEachReadsTheOthers() throws Exception {
    var ours = new RecordKeySerializer();
    for (String key : keys()) {
      var expected = new DataOutputSerializer(64);
      StringSerializer.INSTANCE.serialize(key, expected);
      var actual = new DataOutputSerializer(64);
      ours.serialize(key, actual);
      assertThat(actual.getCopyOfBuffer()).as("key of %d chars", key.length()).isEqualTo(expected.getCopyOfBuffer());
      assertThat(ours.deserialize(new DataInputDeserializer(expected.getCopyOfBuffer()))).isEqualTo(key);
      assertThat(StringSerializer.INSTANCE.deserialize(new DataInputDeserializer(actual.getCopyOfBuffer())))
          .isEqualTo(key);
    }
    var nullKey = new DataOutputSerializer(4);
    ours.serialize(null, nullKey);
    var nullString = new DataOutputSerializer(4);
    StringSerializer.INSTANCE.serialize(null, nullString);
    assertThat(nullKey.getCopyOfBuffer()).isEqualTo(nullString.getCopyOfBuffer());
  }

  @Test
  void stateWrittenWithStringKeysOrRecordKeysRestoresAsIs() {
    var snapshot = new RecordKeySerializer().snapshotConfiguration();
    assertThat(snapshot.resolveSchemaCompatibility(StringSerializer.INSTANCE.snapshotConfiguration()).isCompatibleAsIs())
        .isTrue();
    assertThat(snapshot.resolveSchemaCompatibility(new RecordKeySerializer().snapshotConfiguration()).isCompatibleAsIs())
        .isTrue();
  }
}
