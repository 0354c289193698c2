package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.namesAndTs;
import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.savepoint.Restore;
import io.riverbed.format.savepoint.Savepoint;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.WriteTableVersion;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.Timeline;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writing a table version 8 as Hudi 1.0.2 lays it out: completed instants named
 * {@code <requested>_<completion>.<action>} in {@code .hoodie/timeline/}, Avro commit metadata, log
 * files named by the delta commit that wrote them; compaction, rollback and clean in that layout.
 */
class Version8WriteTest {
  @TempDir java.nio.file.Path dir;

  private Table create(TableType type) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    TableConfig config = TableConfig.builder("orders").type(type).tableVersion(8)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .keyGeneratorClass("org.apache.hudi.keygen.SimpleKeyGenerator")
        .createSchema(WriteTestSupport.SCHEMA.toString())
        .build();
    return Table.create(fs, new Path(dir.toUri().toString(), "orders"), config);
  }

  @Test
  void mergeOnReadWritesCompleteAsLayoutTwoInstantsWithAvroMetadataAndLogsNamedByTheirDeltaCommit() throws IOException {
    Table table = create(TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-01")));
    String t2 = writer.write(List.of(upsert("1", "a2", 2, "2024-01-01"), WriteRecord.delete("2", "2024-01-01", 5L)));
    String t3 = writer.write(List.of(upsert("3", "c", 1, "2024-01-01")));

    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a2@2"), Map.entry("3", "c@1"));
    Timeline timeline = table.refreshTimeline();
    for (String t : List.of(t1, t2, t3)) {
      String completion = timeline.completionTime(t).orElseThrow();
      assertThat(completion).isGreaterThan(t);
      Path completed = new Path(table.timelinePath(), t + "_" + completion + ".deltacommit");
      byte[] bytes = table.timelineStore().read(Instant.completed(t, Action.DELTA_COMMIT));
      assertThat(Arrays.copyOf(bytes, 4)).containsExactly('O', 'b', 'j', 1);
      assertThat(table.fs().exists(completed)).isTrue();
      assertThat(CommitMetadata.parse(bytes, completed.toString()).schema()).isPresent();
    }
    assertThat(timeline.completionTime(t2).orElseThrow()).isLessThan(t3);
    assertThat(names(table.fs(), table.metaPath())).noneMatch(n -> n.contains("commit"));
    // every delta commit wrote its own log file, named by itself
    for (String name : names(table.fs(), table.partitionPath("2024-01-01"))) {
      FileNames.parseLogFileName(name).ifPresent(log -> assertThat(List.of(t1, t2, t3)).contains(log.baseInstant()));
    }
    assertThat(names(table.fs(), table.partitionPath("2024-01-01")).stream()
        .filter(n -> FileNames.parseLogFileName(n).isPresent()).map(n -> FileNames.parseLogFileName(n).get().baseInstant()))
        .contains(t2, t3);
  }

  @Test
  void compactionOfAVersion8TableCompletesAsACommitAndLaterLogsJoinTheNewSlice() throws IOException {
    Table table = create(TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-01")));
    writer.write(List.of(upsert("1", "a2", 2, "2024-01-01")));
    String c = CompactionScheduler.of(table).execute().instantTime().orElseThrow();
    CompactionRunner.of(table, c).execute();
    Timeline timeline = table.refreshTimeline();
    assertThat(timeline.find(c)).map(Instant::action).contains(Action.COMMIT);
    assertThat(timeline.completionTime(c)).isPresent();
    CommitMetadata compaction = CommitMetadata.parse(table.timelineStore().read(Instant.completed(c, Action.COMMIT)), c);
    assertThat(compaction.compacted()).isTrue();
    String t3 = writer.write(List.of(upsert("2", "b3", 3, "2024-01-01")));
    assertThat(t3).isGreaterThan(timeline.completionTime(c).orElseThrow());
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a2@2"), Map.entry("2", "b3@3"));
    assertThat(names(table.fs(), table.partitionPath("2024-01-01"))).anyMatch(n -> n.endsWith(c + ".parquet"));
  }

  @Test
  void rollbackOfAFailedDeltaCommitDeletesTheLogFilesItNamedAndCompletesInLayoutTwo() throws IOException {
    Table table = create(TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    var pending = writer.writeUncommitted(List.of(upsert("1", "lost", 9, "2024-01-01")));
    String x = pending.instantTime();
    assertThat(names(table.fs(), table.partitionPath("2024-01-01"))).anyMatch(n -> n.contains("_" + x + ".log."));
    pending.abandon();
    Rollback.of(table, x).execute();
    assertThat(names(table.fs(), table.partitionPath("2024-01-01"))).noneMatch(n -> n.contains(x));
    Timeline timeline = table.refreshTimeline();
    assertThat(timeline.find(x)).isEmpty();
    assertThat(timeline.ofAction(Action.ROLLBACK).completed().instants()).hasSize(1)
        .allSatisfy(r -> assertThat(timeline.completionTime(r.time())).isPresent());
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
  }

  @Test
  void copyOnWriteUpsertsCleanAndArchivalWithinBounds() throws IOException {
    Table table = create(TableType.COPY_ON_WRITE);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    for (int i = 1; i <= 4; i++) {
      writer.write(List.of(upsert("1", "v" + i, i, "2024-01-01"), upsert(String.valueOf(i + 1), "n", 1, "2024-01-01")));
    }
    assertThat(namesAndTs(table)).containsEntry("1", "v4@4").hasSize(5);
    var cleans = Cleaner.of(table).options(CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "1"))).execute();
    assertThat(cleans).isNotEmpty();
    assertThat(table.refreshTimeline().ofAction(Action.CLEAN).completed().instants())
        .allSatisfy(i -> assertThat(table.timeline().completionTime(i.time())).isPresent());
    assertThat(namesAndTs(table)).containsEntry("1", "v4@4").hasSize(5);
    assertThat(Archiver.of(table).options(ArchiveOptions.defaults()).execute().archiveFile())
        .as("within Hudi's default bounds: nothing archived").isEmpty();
  }

  /**
   * A savepoint is requested at the time of the commit it pins, as Hudi 1.0.2's
   * {@code SavepointActionExecutor} writes it ({@code T.savepoint.inflight}, then
   * {@code T_<completion>.savepoint}): it completes beside the commit (the timeline once refused it as
   * "completed already", taking the commit's completion for the savepoint's), the commit keeps its own
   * completion time, and the savepoint's metadata is read from its own file.
   */
  @Test
  void savepointCompletesBesideItsCommitWhichKeepsItsCompletionTimeAndRestoreGoesBackToIt() throws IOException {
    Table table = create(TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    String commitCompletion = table.refreshTimeline().completionTime(t1).orElseThrow();
    var metadata = Savepoint.of(table, t1).user("ops").execute();
    Timeline timeline = table.refreshTimeline();
    Instant savepoint = timeline.ofAction(Action.SAVEPOINT).completed().find(t1).orElseThrow();
    String savepointCompletion = timeline.completionTime(savepoint).orElseThrow();
    assertThat(savepointCompletion).isGreaterThan(commitCompletion);
    assertThat(timeline.completionTime(t1)).contains(commitCompletion);
    assertThat(timeline.completionTime(Instant.completed(t1, Action.DELTA_COMMIT))).contains(commitCompletion);
    assertThat(names(table.fs(), table.timelinePath())).contains(t1 + ".savepoint.inflight",
        t1 + "_" + savepointCompletion + ".savepoint", t1 + "_" + commitCompletion + ".deltacommit");
    assertThat(SavepointMetadata.fromBytes(table.timelineStore().read(savepoint), t1).dataFilesByPartition())
        .isEqualTo(metadata.dataFilesByPartition());

    writer.write(List.of(upsert("1", "b", 2, "2024-01-01")));
    Restore.of(table, t1).execute();
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
    Timeline restored = table.refreshTimeline();
    assertThat(restored.writeTimeline().completed().times()).containsExactly(t1);
    assertThat(restored.completionTime(t1)).contains(commitCompletion);
    assertThat(restored.ofAction(Action.SAVEPOINT).completed().times()).containsExactly(t1);
  }

  @Test
  void writerThatSetsAnotherTableVersionIsRefusedNamingTheTable() throws IOException {
    Table table = create(TableType.MERGE_ON_READ);
    WriteTableVersion.fromMap(Map.of()).requireMatches(table);
    WriteTableVersion.fromMap(Map.of(WriteTableVersion.KEY, "8")).requireMatches(table);
    assertThatThrownBy(() -> WriteTableVersion.fromMap(Map.of(WriteTableVersion.KEY, "6")).requireMatches(table))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining(table.basePath().toString())
        .hasMessageContaining("table version 8")
        .hasMessageContaining("riverbed-admin downgrade --to 6");
    assertThatThrownBy(() -> WriteTableVersion.fromMap(Map.of(WriteTableVersion.KEY, "7")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(WriteTableVersion.KEY);
  }

  private static TreeSet<String> names(FileSystem fs, Path folder) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    for (FileStatus st : fs.listStatus(folder)) {
      if (st.isFile()) {
        names.add(st.getPath().getName());
      }
    }
    return names;
  }
}
