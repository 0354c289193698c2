package io.riverbed.format.base;

import io.riverbed.format.CorruptFileException;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One standard bloom filter row: a bit vector plus the parameters of its hash family. Serialized as
 * Hadoop's {@code Filter}/{@code BloomFilter} do: {@code int -1} (version), {@code int nbHash},
 * {@code byte hashType}, {@code int vectorSize}, then {@code ceil(vectorSize / 8)} bytes with bit
 * {@code i} at {@code byte[i / 8] & (1 << (i % 8))}.
 */
final class BitVector {
  static final int VERSION = -1;
  static final int MURMUR_HASH = 1;

  /** Bytes of a serialized vector before its bits: version, nbHash, hashType, vectorSize. */
  static final int HEADER_BYTES = 13;
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  final int vectorSize;
  final int nbHash;
  final int hashType;
  private final long[] words;

  BitVector(int vectorSize, int nbHash, int hashType) {
    if (vectorSize <= 0) {
      throw new IllegalArgumentException("bloom filter vector size must be > 0, got " + vectorSize);
    }
    if (nbHash <= 0) {
      throw new IllegalArgumentException("bloom filter hash count must be > 0, got " + nbHash);
    }
    if (hashType != MURMUR_HASH) {
      throw new IllegalArgumentException("only Murmur hashing (type 1) is supported, got hash type " + hashType);
    }
    this.vectorSize = vectorSize;
    this.nbHash = nbHash;
    this.hashType = hashType;
    this.words = new long[(int) (((long) vectorSize + 63) / 64)];
  }

  /** Sets the bits of {@code key}; keys must not be empty (Hadoop rejects them too). */
  void add(MurmurHash.PreparedKey key) {
    requireNonEmpty(key);
    int seed = 0;
    for (int i = 0; i < nbHash; i++) {
      seed = key.hash(seed);
      int bit = Math.abs(seed % vectorSize);
      words[bit >>> 6] |= 1L << bit;
    }
  }

  boolean test(MurmurHash.PreparedKey key) {
    requireNonEmpty(key);
    int seed = 0;
    for (int i = 0; i < nbHash; i++) {
      seed = key.hash(seed);
      int bit = Math.abs(seed % vectorSize);
      if ((words[bit >>> 6] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  int byteLength() {
    return (int) (((long) vectorSize + 7) / 8);
  }

  void writeHeader(DataOutput out) throws IOException {
    out.writeInt(VERSION);
    out.writeInt(nbHash);
    out.writeByte(hashType);
    out.writeInt(vectorSize);
  }

  void write(DataOutput out) throws IOException {
    writeHeader(out);
    byte[] bytes = new byte[byteLength()];
    int fullWords = bytes.length >>> 3;
    for (int w = 0; w < fullWords; w++) {
      LONG_LE.set(bytes, w << 3, words[w]);
    }
    for (int i = fullWords << 3; i < bytes.length; i++) {
      bytes[i] = (byte) (words[i >>> 3] >>> ((i & 7) << 3));
    }
    // bits past vectorSize are never set, so the last byte needs no masking
    out.write(bytes);
  }

  /** Header fields shared by simple and dynamic filters. */
  record Header(int nbHash, int hashType, int vectorSize) {
    static Header read(DataInput in) throws IOException {
      int version = in.readInt();
      if (version > 0) {
        throw new CorruptFileException("bloom filter in the old unversioned layout (Jenkins hash, nbHash="
            + version + ") is not supported");
      }
      if (version != VERSION) {
        throw new CorruptFileException("unsupported bloom filter version " + version);
      }
      int nbHash = in.readInt();
      int hashType = in.readByte();
      int vectorSize = in.readInt();
      if (hashType != MURMUR_HASH) {
        throw new CorruptFileException("unsupported bloom filter hash type " + hashType + " (only Murmur, 1)");
      }
      if (nbHash <= 0 || vectorSize <= 0) {
        throw new CorruptFileException("bloom filter header has nbHash=" + nbHash + ", vectorSize=" + vectorSize);
      }
      return new Header(nbHash, hashType, vectorSize);
    }
  }

  static BitVector read(DataInput in) throws IOException {
    Header header = Header.read(in);
    return readBits(in, header);
  }

  static BitVector readBits(DataInput in, Header header) throws IOException {
    BitVector vector = new BitVector(header.vectorSize(), header.nbHash(), header.hashType());
    byte[] bytes = new byte[vector.byteLength()];
    in.readFully(bytes);
    int fullWords = bytes.length >>> 3;
    for (int w = 0; w < fullWords; w++) {
      vector.words[w] = (long) LONG_LE.get(bytes, w << 3);
    }
    for (int i = fullWords << 3; i < bytes.length; i++) {
      vector.words[i >>> 3] |= (bytes[i] & 0xffL) << ((i & 7) << 3);
    }
    // ignore stray bits beyond vectorSize, as Hadoop's reader does
    int extra = vector.words.length * 64 - vector.vectorSize;
    if (extra > 0) {
      vector.words[vector.words.length - 1] &= -1L >>> extra;
    }
    return vector;
  }

  /** Runs a serializer into a byte array of about {@code expectedBytes}. */
  static byte[] serialize(int expectedBytes, IoWriter writer) {
    var bytes = new ByteArrayOutputStream(expectedBytes);
    try (var out = new DataOutputStream(bytes)) {
      writer.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  @FunctionalInterface
  interface IoWriter {
    void write(DataOutput out) throws IOException;
  }

  private static void requireNonEmpty(MurmurHash.PreparedKey key) {
    if (key.length() == 0) {
      throw new IllegalArgumentException("bloom filter keys must not be empty");
    }
  }
}
