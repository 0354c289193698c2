package io.riverbed.format.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.util.bloom.Key;
import org.apache.hadoop.util.hash.Hash;
import org.junit.jupiter.api.Test;

class BloomFilterTest {

  @Test
  void murmurHashMatchesHadoopForAllTailLengthsAndSignedBytes() {
    var hadoop = org.apache.hadoop.util.hash.MurmurHash.getInstance();
    var random = new Random(42);
    for (int length = 0; length < 40; length++) {
      for (int trial = 0; trial < 50; trial++) {
        byte[] data = new byte[length];
        random.nextBytes(data);
        int seed = random.nextInt();
        assertThat(MurmurHash.hash(data, seed)).as("length %d", length).isEqualTo(hadoop.hash(data, length, seed));
      }
    }
  }

  @Test
  void preparedKeyHashesAsHadoopDoesWithEverySeedWhenReusedForKeysOfAnyLength() {
    var hadoop = org.apache.hadoop.util.hash.MurmurHash.getInstance();
    var random = new Random(7);
    var prepared = new MurmurHash.PreparedKey();
    for (int length : new int[] {0, 1, 2, 3, 4, 5, 36, 67, 1, 200, 3}) {
      byte[] data = new byte[length + 5];
      random.nextBytes(data);
      prepared.set(data, 5, length);
      byte[] key = Arrays.copyOfRange(data, 5, data.length);
      int seed = 0;
      for (int i = 0; i < 30; i++) {
        int expected = hadoop.hash(key, length, seed);
        assertThat(prepared.hash(seed)).as("length %d, hash %d", length, i).isEqualTo(expected);
        seed = expected;
      }
    }
  }

  @Test
  void murmurHashOfKnownInputsIsPinned() {
    var hadoop = org.apache.hadoop.util.hash.MurmurHash.getInstance();
    byte[] key = "id:1".getBytes(StandardCharsets.UTF_8);
    assertThat(MurmurHash.hash(key, 0)).isEqualTo(hadoop.hash(key, key.length, 0));
    byte[] high = {(byte) 0x80, (byte) 0xff, 0x7f};
    assertThat(MurmurHash.hash(high, 7)).isEqualTo(hadoop.hash(high, high.length, 7));
  }

  @Test
  void defaultSizingMatchesHudiDefaults() {
    var filter = (DynamicBloomFilter) BloomFilter.createDefault();
    assertThat(filter.vectorSize()).isEqualTo(2_587_966);
    assertThat(filter.hashCount()).isEqualTo(30);
    assertThat(filter.entriesPerRow()).isEqualTo(60_000);
    assertThat(filter.rowCount()).isEqualTo(1);
  }

  @Test
  void dynamicFilterHeaderBytesArePinned() {
    var filter = BloomFilter.create(BloomFilterType.DYNAMIC_V0, 100, 0.01, 1000);
    filter.add("a");
    filter.add("b");
    ByteBuffer bytes = ByteBuffer.wrap(filter.toBytes());
    int vectorSize = BloomFilter.bitSize(100, 0.01);
    int nbHash = BloomFilter.hashCount(vectorSize, 100);
    assertThat(vectorSize).isEqualTo(959);
    assertThat(nbHash).isEqualTo(7);
    // dynamic header
    assertThat(bytes.getInt()).isEqualTo(-1);
    assertThat(bytes.getInt()).isEqualTo(nbHash);
    assertThat(bytes.get()).isEqualTo((byte) 1);
    assertThat(bytes.getInt()).isEqualTo(vectorSize);
    assertThat(bytes.getInt()).as("nr").isEqualTo(100);
    assertThat(bytes.getInt()).as("currentNbRecord").isEqualTo(2);
    assertThat(bytes.getInt()).as("matrix length").isEqualTo(1);
    // first row: simple filter header then ceil(959/8) = 120 bytes
    assertThat(bytes.getInt()).isEqualTo(-1);
    assertThat(bytes.getInt()).isEqualTo(nbHash);
    assertThat(bytes.get()).isEqualTo((byte) 1);
    assertThat(bytes.getInt()).isEqualTo(vectorSize);
    assertThat(bytes.remaining()).isEqualTo(120);
  }

  @Test
  void simpleFilterBytesEqualHadoopBloomFilterBytes() throws IOException {
    int vectorSize = BloomFilter.bitSize(1000, 0.001);
    int nbHash = BloomFilter.hashCount(vectorSize, 1000);
    var ours = BloomFilter.create(BloomFilterType.SIMPLE, 1000, 0.001, 0);
    var hadoop = new org.apache.hadoop.util.bloom.BloomFilter(vectorSize, nbHash, Hash.MURMUR_HASH);
    for (int i = 0; i < 700; i++) {
      String key = "key-" + i + "-\u00e9\u4e2d";
      ours.add(key);
      hadoop.add(new Key(key.getBytes(StandardCharsets.UTF_8)));
    }
    assertThat(ours.toBytes()).isEqualTo(hadoopBytes(hadoop));
  }

  @Test
  void dynamicFilterBytesEqualHadoopDynamicBloomFilterBytesWhileUnderOneRow() throws IOException {
    int vectorSize = BloomFilter.bitSize(500, 0.0001);
    int nbHash = BloomFilter.hashCount(vectorSize, 500);
    var ours = BloomFilter.create(BloomFilterType.DYNAMIC_V0, 500, 0.0001, 100_000);
    var hadoop = new org.apache.hadoop.util.bloom.DynamicBloomFilter(vectorSize, nbHash, Hash.MURMUR_HASH, 500);
    for (int i = 0; i < 499; i++) {
      String key = "uuid-" + i;
      ours.add(key);
      hadoop.add(new Key(key.getBytes(StandardCharsets.UTF_8)));
    }
    assertThat(ours.toBytes()).isEqualTo(hadoopBytes(hadoop));
  }

  @Test
  void dynamicFilterGrowsRowsUntilMaxEntriesThenStopsGrowing() {
    var filter = (DynamicBloomFilter) BloomFilter.create(BloomFilterType.DYNAMIC_V0, 10, 0.01, 25);
    for (int i = 0; i < 10; i++) {
      filter.add("k" + i);
    }
    assertThat(filter.rowCount()).isEqualTo(1);
    filter.add("k10");
    assertThat(filter.rowCount()).isEqualTo(2);
    for (int i = 11; i < 30; i++) {
      filter.add("k" + i);
    }
    assertThat(filter.rowCount()).isEqualTo(3);
    for (int i = 30; i < 100; i++) {
      filter.add("k" + i);
    }
    assertThat(filter.rowCount()).as("bounded by 25 entries: 3 rows of 10").isEqualTo(3);
    for (int i = 0; i < 100; i++) {
      assertThat(filter.mightContain("k" + i)).isTrue();
    }
  }

  @Test
  void roundTripThroughBase64KeepsMembershipAndBytes() {
    for (BloomFilterType type : BloomFilterType.values()) {
      var filter = BloomFilter.create(type, 1000, 1e-6, 5000);
      int keys = type == BloomFilterType.SIMPLE ? 1000 : 3000;
      for (int i = 0; i < keys; i++) {
        filter.add("rk" + i);
      }
      var copy = BloomFilter.fromString(filter.serializeToString(), type);
      assertThat(copy.type()).isEqualTo(type);
      assertThat(copy.toBytes()).isEqualTo(filter.toBytes());
      for (int i = 0; i < keys; i++) {
        assertThat(copy.mightContain("rk" + i)).isTrue();
      }
      long falsePositives = java.util.stream.IntStream.range(0, 10_000)
          .filter(i -> copy.mightContain("absent" + i)).count();
      assertThat(falsePositives).as(type.name()).isLessThan(50);
    }
  }

  @Test
  void emptyKeyIsNeverContainedAndCannotBeAdded() {
    var filter = BloomFilter.createDefault();
    assertThat(filter.mightContain("")).isFalse();
    assertThatThrownBy(() -> filter.add("")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void truncatedBytesAreReportedAsCorrupt() {
    byte[] bytes = BloomFilter.create(BloomFilterType.SIMPLE, 100, 0.01, 0).toBytes();
    assertThatThrownBy(() -> BloomFilter.fromBytes(Arrays.copyOf(bytes, 20), BloomFilterType.SIMPLE))
        .isInstanceOf(CorruptFileException.class);
  }

  private static byte[] hadoopBytes(org.apache.hadoop.io.Writable filter) throws IOException {
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      filter.write(out);
    }
    return bytes.toByteArray();
  }
}
