package io.riverbed.format.base;

import java.io.DataInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** A single bit vector filter, serialized exactly as Hadoop's {@code org.apache.hadoop.util.bloom.BloomFilter}. */
public final class SimpleBloomFilter implements BloomFilter {
  private final BitVector vector;
  private final MurmurHash.PreparedKey added = new MurmurHash.PreparedKey();

  private SimpleBloomFilter(BitVector vector) {
    this.vector = vector;
  }

  static SimpleBloomFilter create(int numEntries, double fpp) {
    int bits = BloomFilter.bitSize(numEntries, fpp);
    return new SimpleBloomFilter(new BitVector(bits, BloomFilter.hashCount(bits, numEntries), BitVector.MURMUR_HASH));
  }

  static SimpleBloomFilter read(DataInput in) throws IOException {
    return new SimpleBloomFilter(BitVector.read(in));
  }

  @Override
  public void add(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    vector.add(added.set(bytes, 0, bytes.length));
  }

  @Override
  public boolean mightContain(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    return bytes.length > 0 && vector.test(new MurmurHash.PreparedKey().set(bytes, 0, bytes.length));
  }

  @Override
  public BloomFilterType type() {
    return BloomFilterType.SIMPLE;
  }

  @Override
  public byte[] toBytes() {
    return BitVector.serialize(BitVector.HEADER_BYTES + vector.byteLength(), vector::write);
  }

  public int vectorSize() {
    return vector.vectorSize;
  }

  public int hashCount() {
    return vector.nbHash;
  }
}
