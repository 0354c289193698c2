package io.riverbed.format.record;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.InvalidRecordException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.avro.generic.GenericFixed;

/**
 * Ordering values as compact bytes, for indexes that keep a key's last ordering value (the Flink
 * state index, its bootstrap rows). Values are {@linkplain #normalize normalized} first, so a
 * value read from a log block ({@code Utf8}, a {@code GenericFixed} decimal) and the same value
 * from a user record compare as equal after a round trip.
 *
 * <p>Layout: one tag byte, then the value: big-endian numbers, UTF-8 strings, raw bytes.
 */
public final class OrderingValueCodec {
  private static final byte INT = 1;
  private static final byte LONG = 2;
  private static final byte FLOAT = 3;
  private static final byte DOUBLE = 4;
  private static final byte BOOLEAN = 5;
  private static final byte STRING = 6;
  private static final byte BYTES = 7;
  private static final byte DATE = 8;
  private static final byte DECIMAL = 9;

  private OrderingValueCodec() {}

  /**
   * The value in the classes this codec decodes to: {@link CharSequence}s become {@link String},
   * {@link GenericFixed} becomes a {@link ByteBuffer} of its bytes; other values are kept.
   */
  public static Comparable<?> normalize(Comparable<?> value) {
    if (value instanceof CharSequence s && !(value instanceof String)) {
      return s.toString();
    }
    if (value instanceof GenericFixed fixed) {
      return ByteBuffer.wrap(fixed.bytes().clone());
    }
    return value;
  }

  /**
   * The bytes of {@code value}.
   *
   * @throws InvalidRecordException for a value of a class no ordering field can have
   */
  public static byte[] encode(Comparable<?> value) {
    Comparable<?> v = normalize(value);
    if (v instanceof Integer i) {
      return ByteBuffer.allocate(5).put(INT).putInt(i).array();
    }
    if (v instanceof Long l) {
      return ByteBuffer.allocate(9).put(LONG).putLong(l).array();
    }
    if (v instanceof Float f) {
      return ByteBuffer.allocate(5).put(FLOAT).putFloat(f).array();
    }
    if (v instanceof Double d) {
      return ByteBuffer.allocate(9).put(DOUBLE).putDouble(d).array();
    }
    if (v instanceof Boolean b) {
      return new byte[] {BOOLEAN, (byte) (b ? 1 : 0)};
    }
    if (v instanceof String s) {
      return tagged(STRING, s.getBytes(StandardCharsets.UTF_8));
    }
    if (v instanceof ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      return tagged(BYTES, bytes);
    }
    if (v instanceof LocalDate d) {
      return ByteBuffer.allocate(9).put(DATE).putLong(d.toEpochDay()).array();
    }
    if (v instanceof BigDecimal d) {
      byte[] unscaled = d.unscaledValue().toByteArray();
      return ByteBuffer.allocate(5 + unscaled.length).put(DECIMAL).putInt(d.scale()).put(unscaled).array();
    }
    throw new InvalidRecordException("an ordering value of type " + value.getClass().getName() + " (" + value
        + ") cannot be kept in the index");
  }

  /**
   * The value {@link #encode} wrote.
   *
   * @throws CorruptFileException if {@code bytes} were not written by {@link #encode}
   */
  public static Comparable<?> decode(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      throw new CorruptFileException("empty encoded ordering value");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
    try {
      return switch (bytes[0]) {
        case INT -> in.getInt();
        case LONG -> in.getLong();
        case FLOAT -> in.getFloat();
        case DOUBLE -> in.getDouble();
        case BOOLEAN -> in.get() != 0;
        case STRING -> new String(bytes, 1, bytes.length - 1, StandardCharsets.UTF_8);
        case BYTES -> ByteBuffer.wrap(bytes, 1, bytes.length - 1).slice();
        case DATE -> LocalDate.ofEpochDay(in.getLong());
        case DECIMAL -> {
          int scale = in.getInt();
          byte[] unscaled = new byte[in.remaining()];
          in.get(unscaled);
          yield new BigDecimal(new BigInteger(unscaled), scale);
        }
        default -> throw new CorruptFileException("unknown ordering value tag " + bytes[0]);
      };
    } catch (java.nio.BufferUnderflowException | NumberFormatException e) {
      throw new CorruptFileException("truncated encoded ordering value (" + bytes.length + " bytes, tag " + bytes[0] + ")");
    }
  }

  private static byte[] tagged(byte tag, byte[] payload) {
    byte[] out = new byte[payload.length + 1];
    out[0] = tag;
    System.arraycopy(payload, 0, out, 1, payload.length);
    return out;
  }
}
