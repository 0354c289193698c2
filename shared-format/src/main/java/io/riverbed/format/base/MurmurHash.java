package io.riverbed.format.base;

/**
 * MurmurHash 2 (32 bit) exactly as Hadoop's {@code org.apache.hadoop.util.hash.MurmurHash} computes
 * it, which is what Hudi's bloom filters use (hash type {@code 1}).
 *
 * <p>Two quirks must be kept for byte compatibility: the 4-byte blocks are read little-endian, and
 * the 1 to 3 trailing bytes are mixed in <em>sign-extended</em> (a byte {@code 0x80} contributes
 * {@code 0xFFFFFF80}), unlike the reference C implementation.
 */
public final class MurmurHash {
  private static final int M = 0x5bd1e995;
  private static final int R = 24;

  private MurmurHash() {}

  /** Hash of all of {@code data} with the given seed. */
  public static int hash(byte[] data, int seed) {
    return hash(data, 0, data.length, seed);
  }

  /** Hash of {@code data[offset, offset + length)} with the given seed. */
  public static int hash(byte[] data, int offset, int length, int seed) {
    int h = seed ^ length;
    int blocks = length >> 2;
    for (int b = 0; b < blocks; b++) {
      int at = offset + (b << 2);
      int k = (data[at] & 0xff)
          | (data[at + 1] & 0xff) << 8
          | (data[at + 2] & 0xff) << 16
          | data[at + 3] << 24;
      k *= M;
      k ^= k >>> R;
      k *= M;
      h *= M;
      h ^= k;
    }
    int tail = length & 3;
    if (tail != 0) {
      int end = offset + length;
      if (tail >= 3) {
        h ^= data[end - 3] << 16;
      }
      if (tail >= 2) {
        h ^= data[end - 2] << 8;
      }
      h ^= data[end - 1];
      h *= M;
    }
    h ^= h >>> 13;
    h *= M;
    h ^= h >>> 15;
    return h;
  }
}
