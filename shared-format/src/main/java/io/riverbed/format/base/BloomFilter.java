package io.riverbed.format.base;

import io.riverbed.format.CorruptFileException;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A bloom filter over record keys, byte-compatible with the filters Hudi 0.15 stores in parquet
 * footers ({@code org.apache.hudi.bloomfilter}) and in the metadata table's bloom filter partition.
 * Keys are hashed as their UTF-8 bytes.
 *
 * <p>Not thread-safe for {@link #add}; concurrent {@link #mightContain} calls on a filter nobody
 * adds to are safe.
 */
public sealed interface BloomFilter permits SimpleBloomFilter, DynamicBloomFilter {

  /** {@code hoodie.index.bloom.num_entries} default. */
  int DEFAULT_NUM_ENTRIES = 60_000;
  /** {@code hoodie.index.bloom.fpp} default. */
  double DEFAULT_FPP = 0.000000001;
  /** {@code hoodie.bloom.index.filter.dynamic.max.entries} default. */
  int DEFAULT_DYNAMIC_MAX_ENTRIES = 100_000;

  void add(String key);

  /** False means the key is certainly absent; true means it may be present. */
  boolean mightContain(String key);

  BloomFilterType type();

  /** The raw serialized form (Hadoop {@code Writable} layout, see {@link BitVector}). */
  byte[] toBytes();

  /** Base64 of {@link #toBytes()}, the footer value form. */
  default String serializeToString() {
    return Base64.getEncoder().encodeToString(toBytes());
  }

  /** A new, empty filter sized like Hudi sizes it. */
  static BloomFilter create(BloomFilterType type, int numEntries, double fpp, int dynamicMaxEntries) {
    return switch (type) {
      case SIMPLE -> SimpleBloomFilter.create(numEntries, fpp);
      case DYNAMIC_V0 -> DynamicBloomFilter.create(numEntries, fpp, dynamicMaxEntries);
    };
  }

  /** Hudi's defaults: DYNAMIC_V0, 60 000 entries per row, fpp 1e-9, at most 100 000 entries. */
  static BloomFilter createDefault() {
    return create(BloomFilterType.DYNAMIC_V0, DEFAULT_NUM_ENTRIES, DEFAULT_FPP, DEFAULT_DYNAMIC_MAX_ENTRIES);
  }

  /** Decodes a Base64 footer value of the given type. */
  static BloomFilter fromString(String serialized, BloomFilterType type) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(serialized.getBytes(StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new CorruptFileException("bloom filter is not valid Base64", e);
    }
    return fromBytes(bytes, type);
  }

  static BloomFilter fromBytes(byte[] bytes, BloomFilterType type) {
    try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      return switch (type) {
        case SIMPLE -> SimpleBloomFilter.read(in);
        case DYNAMIC_V0 -> DynamicBloomFilter.read(in);
      };
    } catch (IOException e) {
      throw new CorruptFileException("cannot decode " + type + " bloom filter of " + bytes.length + " bytes", e);
    }
  }

  /** Bits in the vector for {@code numEntries} keys at false positive rate {@code fpp} (Hudi's formula). */
  static int bitSize(int numEntries, double fpp) {
    double log2Squared = Math.log(2) * Math.log(2);
    return (int) Math.ceil(numEntries * (-Math.log(fpp) / log2Squared));
  }

  /** Number of hash functions for a vector of {@code bitSize} bits holding {@code numEntries} keys. */
  static int hashCount(int bitSize, int numEntries) {
    return (int) Math.ceil(Math.log(2) * bitSize / numEntries);
  }
}
