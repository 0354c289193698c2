package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;

import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleaningPolicy;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.savepoint.Savepoint;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.write.batch.ReplacedFileGroups;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileStatus;

/**
 * A two-partition orders table for cleaning tests, written through {@link TestWriter}: each round
 * upserts the same six keys (so every file group gets a new slice or log per round), MERGE_ON_READ
 * tables compact on request.
 */
final class CleanTestTable {
  static final List<String> PARTITIONS = List.of("2024-01-01", "2024-01-02");

  final Table table;
  final TestWriter writer;
  private final List<String> writes = new ArrayList<>();

  private CleanTestTable(Table table) {
    this.table = table;
    this.writer = new TestWriter(table, WriteOptions.defaults());
  }

  static CleanTestTable create(java.nio.file.Path dir, TableType type) throws IOException {
    return new CleanTestTable(WriteTestSupport.createTable(dir, type));
  }

  /** A table version 8 (Hudi 1.x's layout). */
  static CleanTestTable createVersion8(java.nio.file.Path dir, TableType type) throws IOException {
    return new CleanTestTable(WriteTestSupport.createTable(dir, type, io.riverbed.format.table.TableConfig.VERSION_8));
  }

  /** r1, r2, compaction c1, r3, r4, compaction c2, r5: slices t1 (logs), c1 and c2 per file group. */
  static CleanTestTable morWithTwoCompactions(java.nio.file.Path dir) throws IOException {
    var t = create(dir, TableType.MERGE_ON_READ);
    t.upsertRound(1);
    t.upsertRound(2);
    t.compact();
    t.upsertRound(3);
    t.upsertRound(4);
    t.compact();
    t.upsertRound(5);
    return t;
  }

  /** COPY_ON_WRITE, rounds 1 to {@code rounds}: a slice per round in each file group. */
  static CleanTestTable cowWithRounds(java.nio.file.Path dir, int rounds) throws IOException {
    var t = create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= rounds; r++) {
      t.upsertRound(r);
    }
    return t;
  }

  /** Clean options of {@code policy} retaining {@code commits} commits or {@code versions} file versions. */
  static CleanOptions cleanOptions(CleaningPolicy policy, int commits, int versions) {
    return CleanOptions.fromMap(Map.of(CleanOptions.POLICY, policy.name(),
        CleanOptions.COMMITS_RETAINED, Integer.toString(commits),
        CleanOptions.FILE_VERSIONS_RETAINED, Integer.toString(versions)));
  }

  /**
   * MERGE_ON_READ: r1, r2, compaction c1, r3 (logs on c1's slices), compaction c2 scheduled but not
   * run, r4 (logs into c2's slices).
   */
  static CleanTestTable morWithPendingCompaction(java.nio.file.Path dir) throws IOException {
    var t = create(dir, TableType.MERGE_ON_READ);
    t.upsertRound(1);
    t.upsertRound(2);
    t.compact();
    t.upsertRound(3);
    t.scheduleCompaction();
    t.upsertRound(4);
    return t;
  }

  /** A commit upserting keys 0..5 with {@code name = r<round>} and ordering value {@code round}. */
  String upsertRound(int round) {
    return upsertRound(round, PARTITIONS);
  }

  /** The same, for the keys of {@code partitions} only. */
  String upsertRound(int round, List<String> partitions) {
    var batch = new ArrayList<WriteRecord>();
    for (int k = 0; k < 6; k++) {
      if (partitions.contains(PARTITIONS.get(k % 2))) {
        batch.add(upsert("k" + k, "r" + round, round, PARTITIONS.get(k % 2)));
      }
    }
    String t = writer.write(batch);
    writes.add(t);
    return t;
  }

  /**
   * An insert_overwrite of one partition (a replacecommit): a new file group with the
   * partition's keys, {@code name = o<round>}, replacing the partition's current file groups.
   */
  String insertOverwrite(String partition, int round) {
    List<String> replaced = ReplacedFileGroups.of(table, timeline(), List.of(partition)).get(partition);
    WriteTransaction tx = WriteTransaction.start(table, io.riverbed.format.timeline.WriteOperationType.INSERT_OVERWRITE);
    var ctx = WriteTaskContext.of(table, tx.instantTime(), 0, 1, 0, WriteTestSupport.SCHEMA, writer.options);
    var fresh = new io.riverbed.format.file.FileGroupId(partition, FileNames.newFileId());
    var records = new ArrayList<WriteRecord>();
    for (int k = 0; k < 6; k++) {
      if (PARTITIONS.get(k % 2).equals(partition)) {
        records.add(upsert("k" + k, "o" + round, round, partition));
      }
    }
    CreateHandle.of(ctx, fresh).write(records).ifPresent(tx::addWriteStat);
    tx.addReplacedFileIds(partition, replaced);
    tx.commit(WriteTestSupport.SCHEMA, Map.of());
    records.forEach(r -> writer.index.put(r.recordKey(), fresh));
    writes.add(tx.instantTime());
    return tx.instantTime();
  }

  /** A delete_partition of {@code partition}: a replacecommit of all its file groups, without new files. */
  String deletePartition(String partition) {
    Map<String, List<String>> replaced = ReplacedFileGroups.of(table, timeline(), List.of(partition));
    WriteTransaction tx = WriteTransaction.start(table, io.riverbed.format.timeline.WriteOperationType.DELETE_PARTITION);
    replaced.forEach(tx::addReplacedFileIds);
    tx.commit(WriteTestSupport.SCHEMA, Map.of());
    writes.add(tx.instantTime());
    return tx.instantTime();
  }

  /** Schedules a compaction of every file group with logs, without running it. */
  String scheduleCompaction() {
    return CompactionScheduler.of(table).execute().instantTime().orElseThrow();
  }

  /** Schedules and runs a compaction; its instant completes as a commit. */
  String compact() {
    String c = scheduleCompaction();
    CompactionRunner.of(table, c).execute();
    writes.add(c);
    return c;
  }

  /** Times of every completed write (commits and compactions), in order. */
  List<String> writes() {
    return List.copyOf(writes);
  }

  /** Answers of time travel to each completed write, for comparing before and after a clean. */
  Map<String, List<String>> answersAsOfEachWrite() {
    var out = new java.util.LinkedHashMap<String, List<String>>();
    writes.forEach(t -> out.put(t, asOf(t)));
    return out;
  }

  Timeline timeline() {
    return WriteTestSupport.timeline(table);
  }

  Map<String, String> snapshot() {
    return WriteTestSupport.namesAndTs(table);
  }

  List<String> asOf(String instant) {
    return TableReads.lines(table, QuerySpec.asOf(instant));
  }

  List<String> incremental(String begin, String end) {
    return TableReads.lines(table, QuerySpec.incremental(begin, end));
  }

  /** Names of every base and log file in the table's partitions. */
  TreeSet<String> dataFiles() {
    var out = new TreeSet<String>();
    for (String p : table.listPartitions()) {
      for (FileStatus st : FileSystemViewLoader.listDataFiles(table, p)) {
        out.add(st.getPath().getName());
      }
    }
    return out;
  }

  /** The base instants (slice keys) present on storage, per file name. */
  static String sliceOf(String fileName) {
    return FileNames.parseBaseFileName(fileName).map(FileNames.BaseFileName::instantTime)
        .orElseGet(() -> FileNames.parseLogFileName(fileName).orElseThrow().baseInstant());
  }

  /** A savepoint of {@code time} ({@link Savepoint}): it pins the files of the latest slices as of it. */
  SavepointMetadata savepoint(String time) {
    return Savepoint.of(table, time).user("test").execute();
  }

  /** A write of keys 0..5 that never commits (a crashed writer): its instant stays inflight. */
  String failedRound(int round) {
    var batch = new ArrayList<WriteRecord>();
    for (int k = 0; k < 6; k++) {
      batch.add(upsert("k" + k, "f" + round, round, PARTITIONS.get(k % 2)));
    }
    return writer.writeUncommitted(batch).instantTime();
  }

  List<String> snapshotLines() {
    return TableReads.lines(table, QuerySpec.snapshot());
  }

  List<Instant> cleans() {
    return timeline().ofAction(Action.CLEAN).instants();
  }
}
