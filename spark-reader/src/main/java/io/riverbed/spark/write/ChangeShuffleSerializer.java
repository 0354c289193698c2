package io.riverbed.spark.write;

import io.riverbed.format.write.batch.EncodedChange;
import io.riverbed.format.write.batch.TaskWrite;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.spark.serializer.DeserializationStream;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;
import scala.reflect.ClassTag;

/**
 * The serializer of a batch write's shuffles: keys (strings, task numbers) and changes
 * ({@link EncodedChange}, {@link TaskWrite.Routed}) in their own binary form, each behind a one-byte
 * tag. The session's serializer is not used for them: Kryo, as most sessions configure it, writes
 * an unregistered class's name with every record and tracks every reference, which made
 * serialization a quarter of an upsert's CPU. Records carry no stream state, so Spark may move
 * serialized records (its serialized sort shuffle).
 */
final class ChangeShuffleSerializer extends Serializer implements Serializable {
  private static final long serialVersionUID = 1L;
  static final ChangeShuffleSerializer INSTANCE = new ChangeShuffleSerializer();

  private static final byte NULL = 0;
  private static final byte STRING = 1;
  private static final byte INTEGER = 2;
  private static final byte CHANGE = 3;
  private static final byte ROUTED = 4;
  private static final int BUFFER_BYTES = 64 * 1024;

  @Override
  public SerializerInstance newInstance() {
    return new Instance();
  }

  @Override
  public boolean supportsRelocationOfSerializedObjects() {
    return true;
  }

  static void write(DataOutputStream out, Object value) throws IOException {
    if (value == null) {
      out.writeByte(NULL);
    } else if (value instanceof String s) {
      out.writeByte(STRING);
      EncodedChange.writeString(out, s);
    } else if (value instanceof Integer i) {
      out.writeByte(INTEGER);
      out.writeInt(i);
    } else if (value instanceof EncodedChange c) {
      out.writeByte(CHANGE);
      c.writeTo(out);
    } else if (value instanceof TaskWrite.Routed r) {
      out.writeByte(ROUTED);
      r.writeTo(out);
    } else {
      throw new IllegalArgumentException("a batch write's shuffle carries keys and changes, not a "
          + value.getClass().getName());
    }
  }

  static Object read(DataInputStream in) throws IOException {
    byte tag = in.readByte();
    return switch (tag) {
      case NULL -> null;
      case STRING -> EncodedChange.readString(in);
      case INTEGER -> in.readInt();
      case CHANGE -> EncodedChange.readFrom(in);
      case ROUTED -> TaskWrite.Routed.readFrom(in);
      default -> throw new IOException("unknown tag " + tag + " in a batch write's shuffle data");
    };
  }

  private interface StreamAction {
    void run() throws IOException;
  }

  private static void unchecked(StreamAction action) {
    try {
      action.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E undeclared(Throwable e) throws E {
    throw (E) e;
  }

  private static final class Instance extends SerializerInstance {
    @Override
    public <T> ByteBuffer serialize(T t, ClassTag<T> tag) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        write(out, t);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return ByteBuffer.wrap(bytes.toByteArray());
    }

    @Override
    public <T> T deserialize(ByteBuffer bytes, ClassTag<T> tag) {
      byte[] copy = new byte[bytes.remaining()];
      bytes.duplicate().get(copy);
      try {
        @SuppressWarnings("unchecked")
        T value = (T) read(new DataInputStream(new ByteArrayInputStream(copy)));
        return value;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public <T> T deserialize(ByteBuffer bytes, ClassLoader loader, ClassTag<T> tag) {
      return deserialize(bytes, tag);
    }

    @Override
    public SerializationStream serializeStream(OutputStream s) {
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s, BUFFER_BYTES));
      return new SerializationStream() {
        @Override
        public <T> SerializationStream writeObject(T t, ClassTag<T> tag) {
          unchecked(() -> write(out, t));
          return this;
        }

        @Override
        public void flush() {
          unchecked(() -> out.flush());
        }

        @Override
        public void close() {
          unchecked(() -> out.close());
        }
      };
    }

    @Override
    public DeserializationStream deserializeStream(InputStream s) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(s, BUFFER_BYTES));
      return new DeserializationStream() {
        @Override
        public <T> T readObject(ClassTag<T> tag) {
          try {
            @SuppressWarnings("unchecked")
            T value = (T) read(in);
            return value;
          } catch (EOFException end) {
            // the end of the stream: Spark's asIterator stops at an EOFException, which Java cannot declare here
            throw ChangeShuffleSerializer.<RuntimeException>undeclared(end);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public void close() {
          unchecked(in::close);
        }
      };
    }
  }
}
