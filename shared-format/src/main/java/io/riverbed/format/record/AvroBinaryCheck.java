package io.riverbed.format.record;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.Schema;

/**
 * Walks Avro binary data against its writer schema without decoding it, checking every length
 * and count against the bytes that are actually there. Avro's own decoder allocates what a length
 * prefix says before it finds out the bytes are missing (a string "of 2 GB" in a 100-byte record,
 * an array "of 2^31 items"), so damaged data must pass this check before it is decoded: a forged
 * length then costs nothing. Items that take no bytes (arrays of {@code null}, of empty records)
 * are limited to {@link #MAX_EMPTY_ITEMS} in total.
 */
public final class AvroBinaryCheck {

  /** Items of zero-byte types one datum may hold. */
  public static final long MAX_EMPTY_ITEMS = 1L << 20;

  private static final int MAX_DEPTH = 512;

  private final byte[] bytes;
  private final int limit;
  private int pos;
  private long emptyItems;

  private AvroBinaryCheck(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.pos = offset;
    this.limit = offset + length;
  }

  /**
   * Checks that {@code bytes[offset, offset + length)} starts with one complete datum of
   * {@code schema}; returns the number of bytes it takes.
   *
   * @throws IllegalArgumentException naming the first length, count or index that does not fit
   */
  public static int check(Schema schema, byte[] bytes, int offset, int length) {
    var check = new AvroBinaryCheck(bytes, offset, length);
    check.datum(schema, 0);
    return check.pos - offset;
  }

  /**
   * Checks an Avro object container (header, then blocks); with the null codec the records of
   * every block are checked against the writer schema of the header too. Returns the writer
   * schema JSON of the header.
   *
   * @throws IllegalArgumentException if a length, count or marker does not fit
   */
  public static String checkContainer(byte[] bytes) {
    var check = new AvroBinaryCheck(bytes, 0, bytes.length);
    return check.container();
  }

  private String container() {
    require(4, "the container magic");
    if (bytes[0] != 'O' || bytes[1] != 'b' || bytes[2] != 'j' || bytes[3] != 1) {
      throw new IllegalArgumentException("not an Avro container (no Obj\\u0001 magic)");
    }
    pos = 4;
    String schemaJson = null;
    String codec = "null";
    for (long count = blockCount(); count != 0; count = blockCount()) {
      for (long i = 0; i < count; i++) {
        String key = new String(bytesOf(), StandardCharsets.UTF_8);
        byte[] value = bytesOf();
        if (key.equals("avro.schema")) {
          schemaJson = new String(value, StandardCharsets.UTF_8);
        } else if (key.equals("avro.codec")) {
          codec = new String(value, StandardCharsets.UTF_8);
        }
      }
    }
    if (schemaJson == null) {
      throw new IllegalArgumentException("Avro container header has no avro.schema");
    }
    require(16, "the sync marker");
    byte[] sync = Arrays.copyOfRange(bytes, pos, pos + 16);
    pos += 16;
    Schema schema = codec.equals("null") ? new Schema.Parser().setValidate(false).setValidateDefaults(false)
        .parse(schemaJson) : null;
    while (pos < limit) {
      long records = readLong();
      long size = readLong();
      if (records < 0 || size < 0 || size > limit - pos) {
        throw new IllegalArgumentException("Avro container block at byte " + pos + " claims " + records
            + " records in " + size + " bytes; " + (limit - pos) + " bytes are left");
      }
      int blockEnd = pos + (int) size;
      if (schema != null) {
        var inBlock = new AvroBinaryCheck(bytes, pos, (int) size);
        for (long i = 0; i < records; i++) {
          inBlock.datum(schema, 0);
        }
      }
      pos = blockEnd;
      require(16, "the sync marker after a block");
      if (!Arrays.equals(bytes, pos, pos + 16, sync, 0, 16)) {
        throw new IllegalArgumentException("Avro container sync marker mismatch at byte " + pos);
      }
      pos += 16;
    }
    return schemaJson;
  }

  private void datum(Schema schema, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("Avro datum nested deeper than " + MAX_DEPTH + " levels");
    }
    switch (schema.getType()) {
      case NULL -> { }
      case BOOLEAN -> skip(1, "a boolean");
      case INT, LONG -> readLong();
      case FLOAT -> skip(4, "a float");
      case DOUBLE -> skip(8, "a double");
      case STRING, BYTES -> skip(length("a " + schema.getType().getName()), "a " + schema.getType().getName());
      case FIXED -> skip(schema.getFixedSize(), "a fixed of " + schema.getFixedSize());
      case ENUM -> {
        long index = readLong();
        if (index < 0 || index >= schema.getEnumSymbols().size()) {
          throw new IllegalArgumentException("enum index " + index + " of " + schema.getFullName() + " at byte "
              + pos + " is not one of its " + schema.getEnumSymbols().size() + " symbols");
        }
      }
      case UNION -> {
        long index = readLong();
        if (index < 0 || index >= schema.getTypes().size()) {
          throw new IllegalArgumentException("union branch " + index + " at byte " + pos + " is not one of "
              + schema.getTypes().size());
        }
        datum(schema.getTypes().get((int) index), depth + 1);
      }
      case RECORD -> {
        for (Schema.Field field : schema.getFields()) {
          datum(field.schema(), depth + 1);
        }
      }
      case ARRAY -> items(schema.getElementType(), null, depth);
      case MAP -> items(schema.getValueType(), Schema.create(Schema.Type.STRING), depth);
    }
  }

  private void items(Schema item, Schema key, int depth) {
    boolean empty = key == null && takesNoBytes(item, 0);
    for (long count = blockCount(); count != 0; count = blockCount()) {
      if (empty) {
        emptyItems += count;
        if (emptyItems > MAX_EMPTY_ITEMS) {
          throw new IllegalArgumentException("more than " + MAX_EMPTY_ITEMS + " zero-byte items at byte " + pos);
        }
      } else if (count > limit - pos) {
        throw new IllegalArgumentException("array or map block at byte " + pos + " claims " + count
            + " items; only " + (limit - pos) + " bytes are left");
      }
      for (long i = 0; i < count; i++) {
        if (key != null) {
          datum(key, depth + 1);
        }
        datum(item, depth + 1);
      }
    }
  }

  /** An array/map block count; a negative count is followed by the block's byte size. */
  private long blockCount() {
    long count = readLong();
    if (count < 0) {
      if (count == Long.MIN_VALUE) {
        throw new IllegalArgumentException("invalid block count at byte " + pos);
      }
      count = -count;
      long size = readLong();
      if (size < 0 || size > limit - pos) {
        throw new IllegalArgumentException("block of " + size + " bytes at byte " + pos + "; only "
            + (limit - pos) + " bytes are left");
      }
    }
    return count;
  }

  private static boolean takesNoBytes(Schema schema, int depth) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    return switch (schema.getType()) {
      case NULL -> true;
      case FIXED -> schema.getFixedSize() == 0;
      case RECORD -> schema.getFields().stream().allMatch(f -> takesNoBytes(f.schema(), depth + 1));
      default -> false;
    };
  }

  private byte[] bytesOf() {
    int length = length("a string");
    require(length, "a string");
    byte[] out = Arrays.copyOfRange(bytes, pos, pos + length);
    pos += length;
    return out;
  }

  private int length(String what) {
    long length = readLong();
    if (length < 0 || length > limit - pos) {
      throw new IllegalArgumentException(what + " of " + length + " bytes at byte " + pos + "; only "
          + (limit - pos) + " bytes are left");
    }
    return (int) length;
  }

  private void skip(int n, String what) {
    require(n, what);
    pos += n;
  }

  private void require(long n, String what) {
    if (n > limit - pos) {
      throw new IllegalArgumentException("data ends at byte " + limit + " inside " + what + " at byte " + pos);
    }
  }

  /** Avro's zig-zag varint long. */
  private long readLong() {
    long raw = 0;
    int shift = 0;
    while (true) {
      if (pos >= limit) {
        throw new IllegalArgumentException("data ends at byte " + limit + " inside a varint");
      }
      int b = bytes[pos++] & 0xFF;
      raw |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
      shift += 7;
      if (shift > 63) {
        throw new IllegalArgumentException("varint longer than 10 bytes at byte " + pos);
      }
    }
    return (raw >>> 1) ^ -(raw & 1);
  }
}
