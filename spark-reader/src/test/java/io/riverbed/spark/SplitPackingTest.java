package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** File slices are packed into input partitions by Spark's own rule for files. */
class SplitPackingTest {
  static final long MB = 1024 * 1024;

  static SliceSplit baseOnly(String fileId, long length) {
    return new SliceSplit("p", fileId, "001", "file:/t/p/" + fileId + "_1-0-1_001.parquet", length,
        new ArrayList<>(), new ArrayList<>(), "002", null, false, null, 0, length);
  }

  static SliceSplit withLogs(String fileId, long baseLength, long... logLengths) {
    ArrayList<String> logs = new ArrayList<>();
    ArrayList<Long> lengths = new ArrayList<>();
    for (int i = 0; i < logLengths.length; i++) {
      logs.add("file:/t/p/." + fileId + "_001.log." + (i + 1) + "_0-1-1");
      lengths.add(logLengths[i]);
    }
    return new SliceSplit("p", fileId, "001", "file:/t/p/" + fileId + "_1-0-1_001.parquet", baseLength,
        logs, lengths, "002", null, false, null, 0, baseLength);
  }

  static List<SliceSplit> flatten(List<SplitPartition> partitions) {
    return partitions.stream().flatMap(p -> p.splits().stream()).toList();
  }

  @Test
  void smallBaseFilesArePackedAsSparkPacksParquetFiles() {
    // the benchmark's table: 48 base files of 2 MB, Spark's defaults, default parallelism 4
    List<SliceSplit> splits = IntStream.range(0, 48).mapToObj(i -> baseOnly("f" + i, 2 * MB)).toList();
    SplitPacking packing = new SplitPacking(128 * MB, 4 * MB, 4, Integer.MAX_VALUE);
    assertThat(packing.maxSplitBytes(splits)).isEqualTo(48 * 6 * MB / 4);
    List<SplitPartition> partitions = packing.pack(splits, s -> true);
    assertThat(partitions).hasSize(4);
    assertThat(flatten(partitions)).containsExactlyInAnyOrderElementsOf(splits);
  }

  @Test
  void aPartitionIsClosedBeforeItsBytesWouldExceedTheMaximum() {
    // max split bytes = min(10, max(1, total / 1)) = 10 MB; sorted 6, 5, 4, 3 MB; each file adds 1 MB of open cost:
    // 6 (7 so far), 7 + 5 > 10: close; 5 (6), 6 + 4 = 10 fits (11); 11 + 3 > 10: close
    List<SliceSplit> splits = List.of(baseOnly("a", 3 * MB), baseOnly("b", 6 * MB), baseOnly("c", 4 * MB),
        baseOnly("d", 5 * MB));
    List<SplitPartition> partitions = new SplitPacking(10 * MB, MB, 1, Integer.MAX_VALUE).pack(splits, s -> false);
    assertThat(partitions).extracting(p -> p.splits().stream().map(SliceSplit::fileId).toList())
        .containsExactly(List.of("b"), List.of("d", "c"), List.of("a"));
  }

  @Test
  void logFilesCountTowardsTheSizeAndOpenCostOfTheirSlice() {
    SliceSplit merged = withLogs("m", 2 * MB, MB, MB);
    assertThat(merged.bytes()).isEqualTo(4 * MB);
    assertThat(merged.files()).isEqualTo(3);
    SplitPacking packing = new SplitPacking(128 * MB, 4 * MB, 1, Integer.MAX_VALUE);
    assertThat(packing.maxSplitBytes(List.of(merged))).isEqualTo(4 * MB + 3 * 4 * MB);
    // 4 + 12 = 16 MB per merged slice: with a 19 MB limit two never share a partition
    List<SplitPartition> partitions = new SplitPacking(19 * MB, 4 * MB, 1, Integer.MAX_VALUE)
        .pack(List.of(merged, withLogs("n", 2 * MB, MB, MB), baseOnly("b", MB)), s -> s.baseOnly());
    assertThat(partitions).extracting(p -> p.splits().stream().map(SliceSplit::fileId).toList())
        .containsExactly(List.of("m"), List.of("n", "b"));
    assertThat(partitions.get(1).baseOnly()).isFalse();
  }

  @Test
  void largeSplittableBaseFilesAreCutIntoByteRanges() {
    SliceSplit big = baseOnly("big", 300 * MB);
    SliceSplit merged = withLogs("m", 300 * MB, MB);
    List<SplitPartition> partitions = new SplitPacking(128 * MB, 4 * MB, 1, Integer.MAX_VALUE).pack(List.of(big, merged), SliceSplit::baseOnly);
    List<SliceSplit> pieces = flatten(partitions);
    assertThat(pieces).filteredOn(s -> s.fileId().equals("big"))
        .extracting(s -> s.byteStart() / MB + "+" + s.byteLength() / MB)
        .containsExactlyInAnyOrder("0+128", "128+128", "256+44");
    assertThat(pieces).filteredOn(s -> s.fileId().equals("m")).singleElement()
        .satisfies(s -> assertThat(s.wholeBaseFile()).isTrue());
    assertThat(partitions).hasSize(4);
  }

  @Test
  void aPartOfABaseFileIsNeverReadAsAWholeSlice() {
    SliceSplit part = baseOnly("big", 300 * MB).withByteRange(128 * MB, 128 * MB);
    assertThat(part.wholeBaseFile()).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(part::toSplit)
        .hasMessageContaining("only Spark's vectorized reader reads part of a base file");
  }

  @Test
  void moreInputPartitionsThanTheMaximumArePackedAgainIntoFewer() {
    // 48 x (2 + 4) MB packed 12 to a partition is 4 partitions; at most 3: 288 MB / 3 = 96 MB each
    List<SliceSplit> splits = IntStream.range(0, 48).mapToObj(i -> baseOnly("f" + i, 2 * MB)).toList();
    List<SplitPartition> partitions = new SplitPacking(128 * MB, 4 * MB, 4, 3).pack(splits, s -> true);
    assertThat(partitions).hasSize(3).allSatisfy(p -> assertThat(p.splits()).hasSize(16));
    assertThat(flatten(partitions)).containsExactlyInAnyOrderElementsOf(splits);
  }

  @Test
  void noSplitsNoPartitions() {
    assertThat(new SplitPacking(128 * MB, 4 * MB, 2, Integer.MAX_VALUE).pack(List.of(), s -> true)).isEmpty();
  }
}
