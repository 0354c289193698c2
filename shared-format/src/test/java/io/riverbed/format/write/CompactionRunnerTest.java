package io.riverbed.format.write;

import static io.riverbed.format.write.CompactionTestTable.delete;
import static io.riverbed.format.write.CompactionTestTable.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionRunnerTest {
  @TempDir java.nio.file.Path dir;
  CompactionTestTable t;

  private String schedule() {
    return CompactionScheduler.of(t.table()).clock(t.clock()).execute().instantTime().orElseThrow();
  }

  private CommitMetadata run(String c) {
    return CompactionRunner.of(t.table(), c).execute();
  }

  private Map<String, WriteStat> statsByFileId(CommitMetadata metadata) {
    return metadata.writeStats().stream().collect(Collectors.toMap(WriteStat::fileId, Function.identity()));
  }

  private Path baseFileOf(String c, String partition, String fileId) {
    FileSystemView view = FileSystemViewLoader.load(t.table(), t.timeline());
    FileSlice slice = view.latestSliceForWrite(new FileGroupId(partition, fileId)).orElseThrow();
    assertThat(slice.baseInstant()).isEqualTo(c);
    return slice.baseFile().orElseThrow().path();
  }

  @Test
  void compactedBaseFilesHoldTheMergedViewWithCommitTimesKept() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    String t1 = t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"), upsert("p1", "a", "k2", 1, "y"),
        upsert("p1", "a", "k3", 1, "z"), upsert("p1", "b", "k4", 1, "w"));
    String t2 = t.deltaCommit(upsert("p1", "a", "k1", 5, "x5"), delete("p1", "a", "k2", 1),
        upsert("p1", "b", "k4", 2, "w2"));
    String t3 = t.deltaCommit(upsert("p1", "a", "k1", 3, "x3"), upsert("p1", "a", "k5", 1, "v"));
    Map<String, String> before = t.snapshot();
    assertThat(before).containsEntry("k1", "x5@5 commit=" + t2).doesNotContainKey("k2")
        .containsEntry("k3", "z@1 commit=" + t1).containsEntry("k5", "v@1 commit=" + t3);
    String c = schedule();

    CommitMetadata metadata = CompactionRunner.of(t.table(), c)
        .options(CompactionOptions.defaults().withMemory(0, dir)).execute();

    assertThat(t.snapshot()).isEqualTo(before);
    Path newA = baseFileOf(c, "p1", "a");
    assertThat(newA.getName()).isEqualTo("a_0-1-0_" + c + ".parquet");
    Map<String, GenericRecord> records = t.readBase(newA).stream()
        .collect(Collectors.toMap(r -> r.get(MetaFields.RECORD_KEY).toString(), Function.identity()));
    assertThat(records).containsOnlyKeys("k1", "k3", "k5");
    assertThat(records.values()).allSatisfy(r -> assertThat(r.get(MetaFields.FILE_NAME).toString()).isEqualTo(newA.getName()));
    assertThat(records.get("k1").get(MetaFields.COMMIT_TIME).toString()).isEqualTo(t2);
    assertThat(records.get("k1").get(MetaFields.COMMIT_SEQNO).toString()).isEqualTo(t2 + "_0_0");
    assertThat(records.get("k3").get(MetaFields.COMMIT_TIME).toString()).isEqualTo(t1);

    assertThat(metadata.compacted()).isTrue();
    assertThat(metadata.operationType()).isEqualTo(WriteOperationType.COMPACT);
    assertThat(metadata.schema()).contains(CompactionTestTable.SCHEMA.toString());
    WriteStat a = statsByFileId(metadata).get("a");
    assertThat(a.path()).isEqualTo("p1/" + newA.getName());
    assertThat(a.prevCommit()).isEqualTo(t1);
    assertThat(a.fileSizeInBytes()).isEqualTo(Files.size(java.nio.file.Path.of(newA.toUri())));
    assertThat(a.totalWriteBytes()).isEqualTo(a.fileSizeInBytes());
    assertThat(a.numWrites()).isEqualTo(3);
    assertThat(a.numDeletes()).isEqualTo(1);
    assertThat(a.numUpdateWrites()).isEqualTo(1);
    assertThat(a.numInserts()).isEqualTo(1);
    assertThat(a.totalLogFilesCompacted()).isEqualTo(2);
    assertThat(a.totalLogRecords()).isEqualTo(4);
    assertThat(a.totalLogSizeCompacted()).isPositive();
    assertThat(statsByFileId(metadata).get("b").prevCommit()).isEqualTo(t1);

    Instant done = Instant.completed(c, Action.COMPACTION);
    assertThat(CommitMetadata.fromJson(t.store().read(done), "test")).isEqualTo(metadata);
    assertThat(t.store().exists(Instant.requested(c, Action.COMPACTION))).isTrue();
    assertThat(t.store().exists(Instant.inflight(c, Action.COMPACTION))).isTrue();
    assertThat(Markers.of(t.table().fs(), t.table().metaPath(), c).list()).isEmpty();
  }

  @Test
  void logOnlyFileGroupGetsABaseFileWithPrevCommitNull() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    String t1 = t.deltaCommit(upsert("p2", "c", "k6", 1, "u"), upsert("p2", "c", "k7", 1, "s"));
    t.deltaCommit(delete("p2", "c", "k7", 2));
    Map<String, String> before = t.snapshot();
    String c = schedule();

    CommitMetadata metadata = run(c);

    WriteStat stat = statsByFileId(metadata).get("c");
    assertThat(stat.prevCommit()).isEqualTo(WriteStat.NULL_COMMIT);
    assertThat(stat.numWrites()).isEqualTo(1);
    assertThat(stat.numInserts()).isEqualTo(1);
    assertThat(stat.numDeletes()).isEqualTo(1);
    assertThat(t.readBase(baseFileOf(c, "p2", "c"))).singleElement()
        .satisfies(r -> assertThat(r.get(MetaFields.COMMIT_TIME).toString()).isEqualTo(t1));
    assertThat(t.snapshot()).isEqualTo(before).containsOnlyKeys("k6");
  }

  @Test
  void eventTimePayloadKeepsABaseRecordWithAHigherOrderingValue() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.DEFAULT);
    String t1 = t.insertBaseFiles(upsert("p1", "a", "k1", 10, "x"), upsert("p1", "a", "k2", 1, "y"));
    String t2 = t.deltaCommit(upsert("p1", "a", "k1", 5, "late"), upsert("p1", "a", "k2", 7, "y7"));
    String c = schedule();

    run(c);

    assertThat(t.snapshot()).containsEntry("k1", "x@10 commit=" + t1).containsEntry("k2", "y7@7 commit=" + t2);
    assertThat(t.readBase(baseFileOf(c, "p1", "a"))).hasSize(2);
  }

  @Test
  void deltaCommitAfterSchedulingStaysVisibleAsLogOfTheNewSlice() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"), upsert("p1", "a", "k2", 1, "y"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String c = schedule();
    String late = t.deltaCommit(upsert("p1", "a", "k2", 3, "y3"), upsert("p1", "a", "k3", 1, "n"));
    assertThat(t.dataFileNames("p1")).contains(".a_" + c + ".log.1_0-1-0");
    Map<String, String> beforeRun = t.snapshot();
    assertThat(beforeRun).containsEntry("k2", "y3@3 commit=" + late).containsKey("k3");

    run(c);

    assertThat(t.snapshot()).isEqualTo(beforeRun);
    FileSlice latest = FileSystemViewLoader.load(t.table(), t.timeline())
        .latestSliceForWrite(new FileGroupId("p1", "a")).orElseThrow();
    assertThat(latest.baseInstant()).isEqualTo(c);
    assertThat(latest.logFiles()).extracting(LogFile::fileName).containsExactly(".a_" + c + ".log.1_0-1-0");
    assertThat(t.readBase(latest.baseFile().orElseThrow().path())).extracting(CompactionTestTable::describe)
        .doesNotContain("y3@3 commit=" + late);
  }

  /**
   * A write completed between scheduling and running a compaction that widened the schema does not
   * reach the compacted files: they hold only blocks of earlier instants, and a time travel to an
   * instant before that write reads them in the schema of its instant (a long column that later
   * became a double cannot be read back as a long).
   */
  @Test
  void aSchemaWidenedAfterSchedulingIsNotTheCompactedFilesSchema() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String c = schedule();
    Schema widened = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
        .requiredString("id").requiredDouble("ts").requiredString("name").optionalString("note").endRecord();
    t.deltaCommitDeclaring(widened, upsert("p1", "a", "k1", 3, "x3"));

    CommitMetadata compacted = run(c);

    Schema written = BaseFileReader.open(t.table().fs().getConf(), baseFileOf(c, "p1", "a")).avroSchema();
    assertThat(written.getField("ts").schema().getType()).isEqualTo(Schema.Type.LONG);
    assertThat(written.getField("note")).isNull();
    assertThat(compacted.schema()).contains(CompactionTestTable.SCHEMA.toString());
  }

  @Test
  void interruptedCompactionIsFinishedByARerun() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"), upsert("p2", "c", "k2", 1, "y"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"), upsert("p2", "c", "k2", 2, "y2"), upsert("p2", "c", "k3", 1, "z"));
    Map<String, String> expected = t.snapshot();
    String c = schedule();
    // Crash while compacting the second file group: its log file cannot be read.
    String cLog = t.dataFileNames("p2").stream().filter(n -> n.startsWith(".c_")).findFirst().orElseThrow();
    Path logPath = new Path(t.folder("p2"), cLog);
    Path hidden = new Path(t.table().basePath(), "hidden-log");
    assertThat(t.table().fs().rename(logPath, hidden)).isTrue();
    assertThatThrownBy(() -> run(c)).isInstanceOf(RuntimeException.class);
    assertThat(t.store().exists(Instant.inflight(c, Action.COMPACTION))).isTrue();
    assertThat(t.dataFileNames("p1")).contains("a_0-1-0_" + c + ".parquet");
    assertThat(t.store().exists(Instant.completed(c, Action.COMPACTION))).isFalse();
    assertThat(t.table().fs().rename(hidden, logPath)).isTrue();
    assertThat(t.snapshot()).as("readers ignore the partial output of the pending compaction").isEqualTo(expected);

    CommitMetadata metadata = run(c);

    assertThat(t.dataFileNames("p1")).filteredOn(n -> n.endsWith(c + ".parquet")).containsExactly("a_0-1-1_" + c + ".parquet");
    assertThat(t.dataFileNames("p2")).filteredOn(n -> n.endsWith(c + ".parquet")).containsExactly("c_1-1-1_" + c + ".parquet");
    assertThat(metadata.writtenPaths()).containsExactly("p1/a_0-1-1_" + c + ".parquet", "p2/c_1-1-1_" + c + ".parquet");
    assertThat(t.snapshot()).isEqualTo(expected);
  }

  @Test
  void rerunDeletesStrayOutputsOfTheInstantButKeepsLogsOfItsSlice() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String c = schedule();
    t.deltaCommit(upsert("p1", "a", "k1", 3, "x3"));
    t.store().transitionToInflight(Instant.requested(c, Action.COMPACTION), new byte[0]);
    String stray = "a_7-1-0_" + c + ".parquet";
    try (var out = t.table().fs().create(new Path(t.folder("p1"), stray))) {
      out.write(new byte[] {'P', 'A', 'R'});
    }
    Markers.of(t.table().fs(), t.table().metaPath(), c).mark("p1", stray, Markers.Type.MERGE);
    Map<String, String> expected = t.snapshot();

    run(c);

    assertThat(t.dataFileNames("p1")).doesNotContain(stray).contains("a_0-1-1_" + c + ".parquet", ".a_" + c + ".log.1_0-1-0");
    assertThat(t.snapshot()).isEqualTo(expected).containsEntry("k1", expected.get("k1"));
    assertThat(expected.get("k1")).startsWith("x3@3");
  }

  @Test
  void fileGroupWhoseRecordsAreAllDeletedGetsAnEmptyBaseFile() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    String t1 = t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"), upsert("p1", "a", "k2", 1, "y"));
    t.deltaCommit(delete("p1", "a", "k1", 1), delete("p1", "a", "k2", 1));
    String c = schedule();

    CommitMetadata metadata = run(c);

    WriteStat stat = statsByFileId(metadata).get("a");
    assertThat(stat.numWrites()).isZero();
    assertThat(stat.numDeletes()).isEqualTo(2);
    assertThat(stat.prevCommit()).isEqualTo(t1);
    assertThat(t.readBase(baseFileOf(c, "p1", "a"))).isEmpty();
    assertThat(t.snapshot()).isEmpty();
  }

  @Test
  void logOnlyGroupWithoutCommittedEntriesGetsNoFile() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String cancelled = t.deltaCommit(upsert("p1", "d", "k9", 1, "gone"));
    t.rollbackLog("p1", "d", cancelled);
    String c = schedule();

    CommitMetadata metadata = run(c);

    assertThat(statsByFileId(metadata)).containsOnlyKeys("a");
    assertThat(t.dataFileNames("p1")).noneMatch(n -> n.startsWith("d_"));
    assertThat(t.snapshot()).containsOnlyKeys("k1");
  }

  @Test
  void runningACompletedCompactionAgainReturnsItsMetadata() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String c = schedule();
    CommitMetadata first = run(c);
    var filesAfterFirst = t.dataFileNames("p1");

    CommitMetadata second = run(c);

    assertThat(second).isEqualTo(first);
    assertThat(t.dataFileNames("p1")).isEqualTo(filesAfterFirst);
  }

  @Test
  void runningAnUnknownCompactionFails() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    assertThatThrownBy(() -> run("20250101000000000")).isInstanceOf(TableException.class)
        .hasMessageContaining("20250101000000000.compaction.requested");
  }

  @Test
  void operationsRunByParallelTasksInAnyOrderCommitTheSameTableAsOneRun() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"), upsert("p1", "b", "k2", 1, "y"), upsert("p2", "c", "k3", 1, "z"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"), upsert("p1", "b", "k2", 2, "y2"), delete("p2", "c", "k3", 2));
    Map<String, String> before = t.snapshot();
    String c = schedule();

    var plan = CompactionRunner.of(t.table(), c).begin().orElseThrow();
    assertThat(plan.operations()).hasSize(3);
    var stats = new java.util.ArrayList<WriteStat>();
    // two tasks of their own (as on two machines), operations in reverse order
    CompactionRunner taskA = CompactionRunner.of(t.table().reload(), c);
    CompactionRunner taskB = CompactionRunner.of(t.table().reload(), c);
    for (int i = plan.operations().size() - 1; i >= 0; i--) {
      (i % 2 == 0 ? taskA : taskB).compact(plan.operations().get(i), i, 0).ifPresent(stats::add);
    }
    assertThat(t.timeline().pendingCompactions().times()).as("not visible before the commit").containsExactly(c);

    CommitMetadata metadata = CompactionRunner.of(t.table().reload(), c).commit(stats);

    assertThat(metadata.writeStats()).hasSize(3);
    assertThat(t.snapshot()).isEqualTo(before);
    assertThat(CompactionRunner.of(t.table(), c).commit(stats)).as("a second commit is a no-op")
        .isEqualTo(metadata);
    assertThat(CompactionRunner.of(t.table(), c).begin()).as("nothing to begin once complete").isEmpty();
  }

  @Test
  void aRetriedOperationsFailedAttemptIsDeletedAtTheCommit() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    Map<String, String> before = t.snapshot();
    String c = schedule();
    CompactionRunner runner = CompactionRunner.of(t.table(), c);
    var operation = runner.begin().orElseThrow().operations().get(0);
    WriteStat failed = runner.compact(operation, 0, 0).orElseThrow();
    Path failedFile = new Path(t.table().partitionPath("p1"), failed.fileName());

    WriteStat retried = runner.compact(operation, 0, 1).orElseThrow();
    assertThat(retried.fileName()).isEqualTo("a_0-1-1_" + c + ".parquet");
    runner.commit(java.util.List.of(retried));

    assertThat(t.table().fs().exists(failedFile)).as("the first attempt's file, which no stat names").isFalse();
    assertThat(baseFileOf(c, "p1", "a").getName()).isEqualTo(retried.fileName());
    assertThat(t.snapshot()).isEqualTo(before);
  }
}
