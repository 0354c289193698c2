package io.riverbed.format.log;

import io.riverbed.format.timeline.InstantRange;
import static io.riverbed.format.log.LogTestSupport.SCHEMA;
import static io.riverbed.format.log.LogTestSupport.localFs;
import static io.riverbed.format.log.LogTestSupport.readBytes;
import static io.riverbed.format.log.LogTestSupport.record;
import static io.riverbed.format.log.LogTestSupport.writeBytes;
import static io.riverbed.format.log.LogTestSupport.writeLog;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.record.PayloadMergeRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SliceLogScannerTest {

  private static final String T1 = "20250101000000001";
  private static final String T2 = "20250101000000002";
  private static final String T3 = "20250101000000003";
  private static final String T4 = "20250101000000004";

  @TempDir Path dir;
  private final FileSystem fs = localFs();
  private final List<org.apache.hadoop.fs.Path> logs = new ArrayList<>();
  private Predicate<String> committed = i -> true;

  private void log(LogBlock... blocks) {
    var path = new org.apache.hadoop.fs.Path(dir.toUri().toString(), ".f1_" + T1 + ".log." + (logs.size() + 1) + "_0-1-0");
    logs.add(writeLog(fs, path, blocks));
  }

  private static AvroDataBlock data(String instant, GenericRecord... records) {
    return AvroDataBlock.of(instant, SCHEMA, List.of(records));
  }

  private static DeleteBlock delete(String instant, DeleteRecord... deletes) {
    return DeleteBlock.of(instant, SCHEMA, List.of(deletes));
  }

  private SliceLogScanner.Builder scanner(String latest) {
    return SliceLogScanner.builder(fs).logFiles(logs).readerSchema(SCHEMA).latestInstantTime(latest)
        .committed(committed).orderingField("ts").spillDirectory(dir.resolve("spill"));
  }

  private static Map<String, Object> view(MergedLogRecords merged) {
    var view = new HashMap<String, Object>();
    for (LogEntry entry : merged) {
      view.put(entry.recordKey(), entry instanceof LogEntry.Upsert u
          ? u.record().get("rider").toString() + "@" + u.orderingValue()
          : "DELETE@" + entry.orderingValue());
    }
    return view;
  }

  private Map<String, Object> scan(String latest) {
    try (MergedLogRecords merged = scanner(latest).build().scan()) {
      return view(merged);
    }
  }

  @Test
  void blocksOfUncommittedInstantsAreIgnored() {
    log(data(T1, record("a", 1, "v1")));
    log(data(T2, record("a", 2, "v2"), record("b", 1, "x")));
    committed = Set.of(T1)::contains;

    assertThat(scan(T4)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "v1@1"));
  }

  @Test
  void rollbackCommandBlockCancelsEveryPendingBlockOfTheTargetInstant() {
    log(data(T1, record("a", 1, "v1")), data(T2, record("a", 2, "v2")));
    log(data(T2, record("b", 2, "x")), delete(T2, DeleteRecord.of("a", "p1")));
    log(CommandBlock.rollback(T3, T2));

    try (MergedLogRecords merged = scanner(T4).build().scan()) {
      assertThat(view(merged)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "v1@1"));
      assertThat(merged.stats().rollbackBlocks()).isEqualTo(1);
      assertThat(merged.stats().blocks()).isEqualTo(5);
    }
  }

  @Test
  void scanStopsAtTheFirstBlockAfterTheQueryInstant() {
    log(data(T1, record("a", 1, "v1")), data(T3, record("a", 3, "v3")), data(T2, record("b", 2, "x")));

    try (MergedLogRecords merged = scanner(T2).build().scan()) {
      assertThat(view(merged)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "v1@1"));
      assertThat(merged.stats().blocks()).isEqualTo(2);
    }
  }

  @Test
  void instantRangeExcludesStartAndIncludesEnd() {
    log(data(T1, record("a", 1, "v1")), data(T2, record("b", 2, "v2")), data(T3, record("c", 3, "v3")));

    try (MergedLogRecords merged = scanner(T4).instantRange(InstantRange.between(T1, T2)).build().scan()) {
      assertThat(view(merged)).containsExactlyInAnyOrderEntriesOf(Map.of("b", "v2@2"));
    }
  }

  @Test
  void largerOrderingValueWinsAndTiesGoToTheLaterWrite() {
    log(data(T1, record("a", 5, "first"), record("b", 5, "first")));
    log(data(T2, record("a", 4, "smaller"), record("b", 5, "tie")));

    assertThat(scan(T4)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "first@5", "b", "tie@5"));
  }

  @Test
  void deleteWithOrderingZeroAlwaysWins() {
    log(data(T1, record("a", 100, "v1")));
    log(delete(T2, DeleteRecord.of("a", "p1")));

    assertThat(scan(T4)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "DELETE@0"));
  }

  @Test
  void deleteWithSmallerOrderingValueThanTheRecordLoses() {
    log(data(T1, record("a", 100, "v1"), record("b", 100, "v1")));
    log(delete(T2, new DeleteRecord("a", "p1", 99L), new DeleteRecord("b", "p1", 101L)));

    assertThat(scan(T4)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "v1@100", "b", "DELETE@101"));
  }

  @Test
  void deleteOfAnotherOrderingTypeWinsBecauseClassesDiffer() {
    log(data(T1, record("a", 100, "v1")));
    log(delete(T2, new DeleteRecord("a", "p1", 5)));

    assertThat(scan(T4)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "DELETE@5"));
  }

  @Test
  void recordAfterDeleteMarkerWinsWhateverItsOrderingValue() {
    log(delete(T1, new DeleteRecord("a", "p1", 500L)));
    log(data(T2, record("a", 1, "back")));

    assertThat(scan(T4)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "back@1"));
  }

  @Test
  void corruptTailIsIgnoredByTheScan() throws Exception {
    log(data(T1, record("a", 1, "v1")), data(T2, record("a", 2, "v2")));
    byte[] bytes = readBytes(fs, logs.get(0));
    writeBytes(fs, logs.get(0), Arrays.copyOf(bytes, bytes.length - 10));

    try (MergedLogRecords merged = scanner(T4).build().scan()) {
      assertThat(view(merged)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "v1@1"));
      assertThat(merged.stats().corruptBlocks()).isEqualTo(1);
    }
  }

  @Test
  void recordsFlaggedDeletedAreDeleteEntries() {
    log(data(T1, record("a", 1, "v1"), record("a", 2, "gone", true)));

    try (MergedLogRecords merged = scanner(T4).build().scan()) {
      LogEntry entry = merged.get("a").orElseThrow();
      assertThat(entry.isDelete()).isTrue();
      assertThat(PayloadMergeRule.DEFAULT.combineWithBase("a", record("a", 0, "base"),
          ((LogEntry.Upsert) entry).record(), "ts")).isEmpty();
    }
  }

  @Test
  void tinyMemoryBudgetSpillsAndGivesTheSameResult() throws Exception {
    for (int block = 0; block < 4; block++) {
      var records = new ArrayList<GenericRecord>();
      for (int i = 0; i < 200; i++) {
        records.add(record("key-" + i, (i * 7 + block * 13) % 50, "b" + block + "-" + i));
      }
      String instant = List.of(T1, T2, T3, T4).get(block);
      log(AvroDataBlock.of(instant, SCHEMA, records));
      log(delete(instant, new DeleteRecord("key-" + block, "p1", 0), new DeleteRecord("key-" + (block + 10), "p1", 30L)));
    }

    Map<String, Object> unbounded = scan(T4);
    try (MergedLogRecords spilled = scanner(T4).memoryBudgetBytes(2_000).build().scan()) {
      assertThat(spilled.stats().spilledEntries()).isGreaterThan(100);
      try (var files = Files.list(dir.resolve("spill"))) {
        assertThat(files).hasSize(1);
      }
      assertThat(view(spilled)).isEqualTo(unbounded);
      assertThat(spilled.size()).isEqualTo(200);
      assertThat(spilled.get("key-199")).isPresent();
      assertThat(spilled.stats().records()).isEqualTo(800);
      assertThat(spilled.stats().deletes()).isEqualTo(8);
    }
    try (var files = Files.list(dir.resolve("spill"))) {
      assertThat(files).isEmpty();
    }
  }
}
