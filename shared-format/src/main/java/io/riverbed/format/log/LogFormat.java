package io.riverbed.format.log;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Constants of the Hudi log format (version 1) and the header/footer map encoding.
 *
 * <pre>
 * MAGIC "#HUDI#" | long blockSize | int version=1 | int type | header map | long contentLength
 *   | content | footer map | long trailing = blockSize + 6
 * </pre>
 *
 * {@code blockSize} counts every byte after itself up to and including the trailing long; a
 * block occupies {@code blockSize + 14} bytes. A map is {@code int count} then per entry
 * {@code int keyOrdinal, int byteLength, UTF-8 bytes}. All integers are big-endian.
 */
public final class LogFormat {

  /** Log format version written and read. */
  public static final int LOG_FORMAT_VERSION = 1;

  /** Content version of Avro data blocks and delete blocks ({@code HoodieLogBlock.version}). */
  public static final int BLOCK_CONTENT_VERSION = 3;

  /** Command block type value of a rollback ({@code HoodieCommandBlockTypeEnum.ROLLBACK_BLOCK}). */
  public static final String ROLLBACK_COMMAND = "0";

  static final int MAGIC_LENGTH = 6;
  private static final byte[] MAGIC = {'#', 'H', 'U', 'D', 'I', '#'};

  /** Bytes of the magic and the blockSize long that precede what blockSize counts. */
  static final int FRAME_PREFIX = MAGIC_LENGTH + 8;

  /** Smallest possible blockSize: version, type, empty header, content length, empty footer, trailing. */
  static final long MIN_BLOCK_SIZE = 4 + 4 + 4 + 8 + 4 + 8;

  private LogFormat() {}

  /** A copy of the 6 magic bytes {@code #HUDI#}. */
  public static byte[] magic() {
    return MAGIC.clone();
  }

  static boolean isMagic(byte[] bytes, int offset) {
    return Arrays.equals(bytes, offset, offset + MAGIC_LENGTH, MAGIC, 0, MAGIC_LENGTH);
  }

  static void writeMagic(DataOutput out) throws IOException {
    out.write(MAGIC);
  }

  /** Writes a header or footer map, entries in key ordinal order. */
  static void writeMap(DataOutput out, Map<HeaderKey, String> map) throws IOException {
    out.writeInt(map.size());
    for (HeaderKey key : HeaderKey.values()) {
      String value = map.get(key);
      if (value != null) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(key.ordinal());
        out.writeInt(bytes.length);
        out.write(bytes);
      }
    }
  }
}
