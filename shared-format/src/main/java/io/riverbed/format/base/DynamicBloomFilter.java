package io.riverbed.format.base;

import io.riverbed.format.CorruptFileException;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Hudi's {@code DYNAMIC_V0} filter ({@code HoodieDynamicBoundedBloomFilter}): a list of rows, each a
 * standard filter sized for {@code nr} keys. When the active row holds {@code nr} keys a new row is
 * added, until {@code rows * nr >= maxEntries}; from then on keys are spread round-robin over the
 * existing rows (false positive rate no longer guaranteed).
 *
 * <p>Serialized as its own header ({@code -1, nbHash, hashType, vectorSize}), then {@code int nr},
 * {@code int currentNbRecord}, {@code int rowCount}, then every row as a simple filter. The bound
 * {@code maxEntries} is not serialized; a filter read back is meant for lookups.
 */
public final class DynamicBloomFilter implements BloomFilter {
  private final int vectorSize;
  private final int nbHash;
  private final int hashType;
  private final int nr;
  private final int maxEntries;
  private final List<BitVector> rows;
  private final MurmurHash.PreparedKey added = new MurmurHash.PreparedKey();
  private int currentNbRecord;
  private boolean reachedMax;
  private int roundRobin;

  private DynamicBloomFilter(int vectorSize, int nbHash, int hashType, int nr, int maxEntries,
      List<BitVector> rows, int currentNbRecord) {
    this.vectorSize = vectorSize;
    this.nbHash = nbHash;
    this.hashType = hashType;
    this.nr = nr;
    this.maxEntries = maxEntries;
    this.rows = rows;
    this.currentNbRecord = currentNbRecord;
  }

  static DynamicBloomFilter create(int numEntries, double fpp, int maxEntries) {
    int bits = BloomFilter.bitSize(numEntries, fpp);
    int hashes = BloomFilter.hashCount(bits, numEntries);
    var rows = new ArrayList<BitVector>();
    rows.add(new BitVector(bits, hashes, BitVector.MURMUR_HASH));
    return new DynamicBloomFilter(bits, hashes, BitVector.MURMUR_HASH, numEntries, maxEntries, rows, 0);
  }

  static DynamicBloomFilter read(DataInput in) throws IOException {
    BitVector.Header header = BitVector.Header.read(in);
    int nr = in.readInt();
    int current = in.readInt();
    int rowCount = in.readInt();
    if (rowCount < 0 || rowCount > 1 << 16) {
      throw new CorruptFileException("dynamic bloom filter claims " + rowCount + " rows");
    }
    var rows = new ArrayList<BitVector>(rowCount);
    for (int i = 0; i < rowCount; i++) {
      rows.add(BitVector.read(in));
    }
    return new DynamicBloomFilter(header.vectorSize(), header.nbHash(), header.hashType(), nr, 0, rows, current);
  }

  @Override
  public void add(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    activeRow().add(added.set(bytes, 0, bytes.length));
    currentNbRecord++;
  }

  private BitVector activeRow() {
    if (reachedMax) {
      return rows.get(roundRobin++ % rows.size());
    }
    if (currentNbRecord >= nr) {
      if ((long) rows.size() * nr < maxEntries) {
        rows.add(new BitVector(vectorSize, nbHash, hashType));
        currentNbRecord = 0;
      } else {
        reachedMax = true;
        return rows.get(0);
      }
    }
    return rows.get(rows.size() - 1);
  }

  @Override
  public boolean mightContain(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0) {
      return false;
    }
    MurmurHash.PreparedKey prepared = new MurmurHash.PreparedKey().set(bytes, 0, bytes.length);
    for (BitVector row : rows) {
      if (row.test(prepared)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public BloomFilterType type() {
    return BloomFilterType.DYNAMIC_V0;
  }

  @Override
  public byte[] toBytes() {
    int rowBytes = BitVector.HEADER_BYTES + rows.get(0).byteLength();
    return BitVector.serialize(BitVector.HEADER_BYTES + 3 * Integer.BYTES + rows.size() * rowBytes, this::write);
  }

  private void write(DataOutput out) throws IOException {
    out.writeInt(BitVector.VERSION);
    out.writeInt(nbHash);
    out.writeByte(hashType);
    out.writeInt(vectorSize);
    out.writeInt(nr);
    out.writeInt(currentNbRecord);
    out.writeInt(rows.size());
    for (BitVector row : rows) {
      row.write(out);
    }
  }

  public int rowCount() {
    return rows.size();
  }

  public int vectorSize() {
    return vectorSize;
  }

  public int hashCount() {
    return nbHash;
  }

  /** Keys per row before a new row is added ({@code nr}). */
  public int entriesPerRow() {
    return nr;
  }
}
