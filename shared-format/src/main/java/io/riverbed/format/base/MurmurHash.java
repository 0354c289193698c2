package io.riverbed.format.base;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash 2 (32 bit) exactly as Hadoop's {@code org.apache.hadoop.util.hash.MurmurHash} computes
 * it, which is what Hudi's bloom filters use (hash type {@code 1}).
 *
 * <p>Two quirks must be kept for byte compatibility: the 4-byte blocks are read little-endian, and
 * the 1 to 3 trailing bytes are mixed in <em>sign-extended</em> (a byte {@code 0x80} contributes
 * {@code 0xFFFFFF80}), unlike the reference C implementation.
 */
public final class MurmurHash {
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
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
      h *= M;
      h ^= mixBlock(data, offset + (b << 2));
    }
    int tail = length & 3;
    if (tail != 0) {
      h ^= tailBits(data, offset + length, tail);
      h *= M;
    }
    return finish(h);
  }

  private static int mixBlock(byte[] data, int at) {
    int k = (int) INT_LE.get(data, at);
    k *= M;
    k ^= k >>> R;
    k *= M;
    return k;
  }

  private static int tailBits(byte[] data, int end, int tail) {
    int bits = 0;
    if (tail >= 3) {
      bits ^= data[end - 3] << 16;
    }
    if (tail >= 2) {
      bits ^= data[end - 2] << 8;
    }
    return bits ^ data[end - 1];
  }

  private static int finish(int h) {
    h ^= h >>> 13;
    h *= M;
    h ^= h >>> 15;
    return h;
  }

  /**
   * One key prepared for hashing with many seeds, as a bloom filter hashes each key once per hash
   * function: the mix of each 4-byte block does not depend on the seed, so it is done once here.
   * {@link #hash(int)} equals {@link MurmurHash#hash(byte[], int)} of the key's bytes. Reusable
   * through {@link #set}; not thread-safe.
   */
  public static final class PreparedKey {
    private int[] blocks = new int[16];
    private int blockCount;
    private int length;
    private int tail;
    private boolean hasTail;

    /** Prepares {@code data[offset, offset + length)}. */
    public PreparedKey set(byte[] data, int offset, int length) {
      int count = length >> 2;
      if (blocks.length < count) {
        blocks = new int[Math.max(count, blocks.length * 2)];
      }
      for (int b = 0; b < count; b++) {
        blocks[b] = mixBlock(data, offset + (b << 2));
      }
      int rest = length & 3;
      this.blockCount = count;
      this.length = length;
      this.hasTail = rest != 0;
      this.tail = hasTail ? tailBits(data, offset + length, rest) : 0;
      return this;
    }

    public int length() {
      return length;
    }

    /** The key's hash with {@code seed}. */
    public int hash(int seed) {
      int h = seed ^ length;
      for (int b = 0; b < blockCount; b++) {
        h *= M;
        h ^= blocks[b];
      }
      if (hasTail) {
        h ^= tail;
        h *= M;
      }
      return finish(h);
    }
  }
}
