package io.riverbed.flink.index;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * The index's key serializer: the bytes of Flink's {@link StringSerializer} (a variable-length
 * length, then each character variable-length encoded), written in one call instead of one per
 * byte. A heap checkpoint writes every key of the index through the checkpoint stream, where a
 * write per byte cost more than half of the snapshot's time; the same bytes keep checkpoints and
 * savepoints of jobs keyed by {@code Types.STRING} restorable, in both directions.
 */
public final class RecordKeySerializer extends TypeSerializer<String> {
  private static final long serialVersionUID = 1L;
  private static final int HIGH_BIT = 0x80;

  /** Scratch space for one key's bytes; a serializer is used by one thread (see {@link #duplicate}). */
  private transient byte[] scratch;

  @Override
  public boolean isImmutableType() {
    return true;
  }

  @Override
  public TypeSerializer<String> duplicate() {
    return new RecordKeySerializer();
  }

  @Override
  public String createInstance() {
    return "";
  }

  @Override
  public String copy(String from) {
    return from;
  }

  @Override
  public String copy(String from, String reuse) {
    return from;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(String key, DataOutputView target) throws IOException {
    if (key == null) {
      target.write(0);
      return;
    }
    int length = key.length();
    int most = 5 + 3 * length;
    byte[] bytes = scratch;
    if (bytes == null || bytes.length < most) {
      bytes = new byte[Math.max(most, 64)];
      scratch = bytes;
    }
    int at = varint(length + 1, bytes, 0);
    for (int i = 0; i < length; i++) {
      char c = key.charAt(i);
      if (c < HIGH_BIT) {
        bytes[at++] = (byte) c;
      } else {
        at = varint(c, bytes, at);
      }
    }
    target.write(bytes, 0, at);
  }

  /** Writes {@code value} seven bits at a time, low bits first, the high bit set on all but the last byte. */
  private static int varint(int value, byte[] bytes, int at) {
    int v = value;
    while (v >= HIGH_BIT) {
      bytes[at++] = (byte) (v | HIGH_BIT);
      v >>>= 7;
    }
    bytes[at++] = (byte) v;
    return at;
  }

  @Override
  public String deserialize(DataInputView source) throws IOException {
    return StringValue.readString(source);
  }

  @Override
  public String deserialize(String reuse, DataInputView source) throws IOException {
    return StringValue.readString(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    StringValue.copyString(source, target);
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof RecordKeySerializer;
  }

  @Override
  public int hashCode() {
    return RecordKeySerializer.class.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<String> snapshotConfiguration() {
    return new Snapshot();
  }

  /**
   * The serializer has no configuration; it reads what it and {@link StringSerializer} wrote, and
   * {@link StringSerializer} reads what it writes.
   */
  public static final class Snapshot implements TypeSerializerSnapshot<String> {
    @Override
    public int getCurrentVersion() {
      return 1;
    }

    @Override
    public void writeSnapshot(DataOutputView out) {
      // nothing to configure
    }

    @Override
    public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader) {
      // nothing to configure
    }

    @Override
    public TypeSerializer<String> restoreSerializer() {
      return new RecordKeySerializer();
    }

    /** Restoring state this serializer or {@link StringSerializer} wrote. */
    @Override
    public TypeSerializerSchemaCompatibility<String> resolveSchemaCompatibility(TypeSerializerSnapshot<String> old) {
      return old instanceof Snapshot || old instanceof StringSerializer.StringSerializerSnapshot
          ? TypeSerializerSchemaCompatibility.compatibleAsIs() : TypeSerializerSchemaCompatibility.incompatible();
    }

    /** Restoring state this serializer wrote with {@link StringSerializer} or this serializer. */
    @Override
    @SuppressWarnings("deprecation")
    public TypeSerializerSchemaCompatibility<String> resolveSchemaCompatibility(TypeSerializer<String> newSerializer) {
      return newSerializer instanceof RecordKeySerializer || newSerializer instanceof StringSerializer
          ? TypeSerializerSchemaCompatibility.compatibleAsIs() : TypeSerializerSchemaCompatibility.incompatible();
    }
  }
}
