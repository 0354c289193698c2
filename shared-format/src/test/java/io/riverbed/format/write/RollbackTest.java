package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.namesAndTs;
import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.log.CommandBlock;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantInfo;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.RollbackPlan;
import io.riverbed.format.timeline.TimelineStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollbackTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void rollbackOfInflightMergeOnReadInstantHidesItsDataAndLeavesHudiShapedFiles() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults().withFileSizes(1 << 20, 0, 1024));
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-01")));
    FileGroupId existing = writer.index.get("1");
    var failed = writer.writeUncommitted(List.of(upsert("1", "a2", 2, "2024-01-01"),
        WriteRecord.delete("2", "2024-01-01", 2L), upsert("3", "new", 1, "2024-01-01")));
    String x = failed.instantTime();
    FileGroupId created = writer.index.get("3");
    String createdLog = FileNames.logFileName(created.fileId(), x, 1, "0-1-0");
    assertThat(table.fs().exists(new Path(table.partitionPath("2024-01-01"), createdLog))).isTrue();

    RollbackMetadata metadata = Rollback.of(table, x).execute();

    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"), Map.entry("2", "b@1"));
    String r = metadata.startRollbackTime();
    assertThat(r).isGreaterThan(x);
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    assertThat(store.statesOf(x)).isEmpty();
    assertThat(store.statesOf(r)).containsExactlyInAnyOrder(Instant.requested(r, Action.ROLLBACK),
        Instant.inflight(r, Action.ROLLBACK), Instant.completed(r, Action.ROLLBACK));
    assertThat(store.read(Instant.inflight(r, Action.ROLLBACK))).isEmpty();
    RollbackPlan plan = RollbackPlan.fromBytes(store.read(Instant.requested(r, Action.ROLLBACK)), "plan");
    assertThat(plan.instantToRollback()).isEqualTo(new InstantInfo(x, "deltacommit"));
    RollbackMetadata stored = RollbackMetadata.fromBytes(store.read(Instant.completed(r, Action.ROLLBACK)), "meta");
    assertThat(stored.commitsRollback()).containsExactly(x);
    assertThat(stored.instantsRollback()).containsExactly(new InstantInfo(x, "deltacommit"));
    assertThat(stored.partitionMetadata().get("2024-01-01").successDeleteFiles())
        .singleElement().satisfies(f -> assertThat(f).endsWith("/" + createdLog).startsWith("file:"));

    String rollbackLog = FileNames.logFileName(existing.fileId(), t1, 3, FileNames.UNKNOWN_WRITE_TOKEN);
    Path rollbackPath = new Path(table.partitionPath("2024-01-01"), rollbackLog);
    assertThat(stored.partitionMetadata().get("2024-01-01").rollbackLogFiles())
        .containsExactly(Map.entry(rollbackPath.toString(), table.fs().getFileStatus(rollbackPath).getLen()));
    assertThat(stored.partitionMetadata().get("2024-01-01").logFilesFromFailedCommit())
        .containsOnlyKeys(FileNames.logFileName(existing.fileId(), t1, 2, "0-1-0"));
    List<LogBlock> blocks = blocks(table, rollbackPath);
    assertThat(blocks).singleElement().isInstanceOfSatisfying(CommandBlock.class, c -> {
      assertThat(c.isRollback()).isTrue();
      assertThat(c.instantTime()).isEqualTo(r);
      assertThat(c.targetInstantTime()).isEqualTo(x);
    });
    assertThat(table.fs().getFileStatus(rollbackPath).getLen()).isEqualTo(105);
    assertThat(table.fs().exists(new Path(table.partitionPath("2024-01-01"), createdLog))).isFalse();
    assertThat(table.fs().exists(new Path(table.tempPath(), x))).isFalse();
  }

  @Test
  void rollbackOfInflightCopyOnWriteInstantDeletesItsBaseFiles() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    String x = writer.writeUncommitted(List.of(upsert("1", "a2", 2, "2024-01-01"), upsert("9", "z", 1, "2024-01-02")))
        .instantTime();
    assertThat(filesNamedWith(table, x)).hasSize(2);

    RollbackMetadata metadata = Rollback.of(table, x).execute();

    assertThat(filesNamedWith(table, x)).isEmpty();
    assertThat(metadata.totalFilesDeleted()).isEqualTo(2);
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
    assertThat(TimelineStore.at(table.fs(), table.metaPath()).statesOf(x)).isEmpty();
  }

  @Test
  void withoutMarkersBaseFilesOfTheInstantAreFoundByListing() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    String x = writer.writeUncommitted(List.of(upsert("1", "a2", 2, "2024-01-01"))).instantTime();
    Markers.of(table.fs(), table.metaPath(), x).delete();

    Rollback.of(table, x).execute();

    assertThat(filesNamedWith(table, x)).isEmpty();
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
  }

  @Test
  void withoutMarkersLogBlocksOfTheInstantInOlderSlicesAreFoundByReadingTheLogs() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    String x = writer.writeUncommitted(List.of(upsert("1", "a2", 2, "2024-01-01"))).instantTime();
    Markers.of(table.fs(), table.metaPath(), x).delete();

    Rollback.of(table, x).execute();

    FileGroupId group = writer.index.get("1");
    Path rollbackLog = new Path(table.partitionPath("2024-01-01"),
        FileNames.logFileName(group.fileId(), t1, 3, FileNames.UNKNOWN_WRITE_TOKEN));
    assertThat(blocks(table, rollbackLog)).singleElement().isInstanceOf(CommandBlock.class);
  }

  @Test
  void completedInstantIsRolledBackOnlyWhenAskedExplicitly() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    String t2 = writer.write(List.of(upsert("1", "b", 2, "2024-01-01")));
    assertThatThrownBy(() -> Rollback.of(table, t2).execute())
        .isInstanceOf(TableException.class).hasMessageContaining(t2).hasMessageContaining("allowCompleted");

    Rollback.of(table, t2).allowCompleted(true).execute();

    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
    assertThat(TimelineStore.at(table.fs(), table.metaPath()).statesOf(t2)).isEmpty();
  }

  @Test
  void rollbackThatCrashedBeforeCompletingIsResumedWithItsPlanAndWritesNoSecondCommandBlock() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults().withFileSizes(1 << 20, 0, 1024));
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    String x = writer.writeUncommitted(List.of(upsert("1", "a2", 2, "2024-01-01"), upsert("2", "b", 1, "2024-01-02")))
        .instantTime();
    RollbackMetadata first = Rollback.of(table, x).execute();
    String r = first.startRollbackTime();
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    // crash point: after the data and X's timeline files were handled, before R.rollback was written
    store.delete(Instant.completed(r, Action.ROLLBACK));

    List<RollbackMetadata> resumed = Rollback.rollbackFailedWrites(table);

    assertThat(resumed).singleElement().satisfies(m -> {
      assertThat(m.startRollbackTime()).isEqualTo(r);
      assertThat(m.commitsRollback()).containsExactly(x);
    });
    assertThat(store.statesOf(r)).contains(Instant.completed(r, Action.ROLLBACK));
    assertThat(logFilesWithToken(table, "2024-01-01", FileNames.UNKNOWN_WRITE_TOKEN)).hasSize(1);
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
  }

  @Test
  void rollbackThatCrashedAfterItsPlanIsFinishedByRunningItAgain() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    String x = writer.writeUncommitted(List.of(upsert("1", "a2", 2, "2024-01-01"))).instantTime();
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    // crash point: plan written and rollback inflight, one file deleted, nothing else done
    RollbackPlan plan = RollbackPlanner.plan(table, store.load().find(x).orElseThrow());
    String r = InstantClock.next(InstantClock.forTable(table), store.load());
    store.transitionToInflight(store.createRequested(r, Action.ROLLBACK, plan.toBytes()), new byte[0]);
    table.fs().delete(new Path(plan.requests().get(0).filesToBeDeleted().get(0)), false);
    Markers.of(table.fs(), table.metaPath(), x).delete();

    RollbackMetadata metadata = Rollback.of(table, x).execute();

    assertThat(metadata.startRollbackTime()).isEqualTo(r);
    assertThat(metadata.totalFilesDeleted()).isEqualTo(1);
    assertThat(store.statesOf(x)).isEmpty();
    assertThat(filesNamedWith(table, x)).isEmpty();
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
  }

  @Test
  void rollbackFailedWritesUndoesEveryPendingWriteButNotCompactions() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    FileGroupId group = writer.index.get("1");
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    String compaction = InstantClock.next(InstantClock.forTable(table), store.load());
    store.createRequested(compaction, Action.COMPACTION, io.riverbed.format.timeline.CompactionPlan.of(List.of(
        io.riverbed.format.timeline.CompactionOperation.of("2024-01-01", group.fileId(), t1, null,
            List.of(FileNames.logFileName(group.fileId(), t1, 1, "0-1-0"))))).toBytes());
    String x1 = writer.writeUncommitted(List.of(upsert("1", "b", 2, "2024-01-01"))).instantTime();
    String x2 = writer.writeUncommitted(List.of(upsert("1", "c", 3, "2024-01-01"))).instantTime();

    List<RollbackMetadata> done = Rollback.rollbackFailedWrites(table);

    assertThat(done).extracting(m -> m.commitsRollback().get(0)).containsExactly(x2, x1);
    assertThat(store.load().pending().instants()).containsExactly(Instant.requested(compaction, Action.COMPACTION));
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
  }

  @Test
  void rollbackOfAnUnknownInstantFailsNamingIt() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    assertThatThrownBy(() -> Rollback.of(table, "20240101000000000").execute())
        .isInstanceOf(TableException.class).hasMessageContaining("20240101000000000")
        .hasMessageContaining(table.basePath().toString());
  }

  static List<LogBlock> blocks(Table table, Path path) {
    List<LogBlock> out = new ArrayList<>();
    try (LogFileReader reader = LogFileReader.open(table.fs(), path)) {
      reader.forEachRemaining(out::add);
    }
    return out;
  }

  static List<String> filesNamedWith(Table table, String instant) throws Exception {
    List<String> out = new ArrayList<>();
    for (String partition : table.listPartitions()) {
      for (FileStatus st : table.fs().listStatus(table.partitionPath(partition))) {
        String name = st.getPath().getName();
        if (FileNames.parseBaseFileName(name).filter(b -> b.instantTime().equals(instant)).isPresent()) {
          out.add(name);
        }
      }
    }
    return out;
  }

  static List<String> logFilesWithToken(Table table, String partition, String token) throws Exception {
    return Arrays.stream(table.fs().listStatus(table.partitionPath(partition))).map(s -> s.getPath().getName())
        .filter(n -> FileNames.parseLogFileName(n).filter(l -> token.equals(l.writeToken())).isPresent())
        .toList();
  }

}
