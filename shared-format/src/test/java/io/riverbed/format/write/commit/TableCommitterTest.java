package io.riverbed.format.write.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.TableException;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.Await;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.KafkaOffsets;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.AppendHandle;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.Rollback;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.write.WriteTaskContext;
import io.riverbed.format.write.BucketIndex;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import io.riverbed.format.write.concurrency.FileSystemTableLock;
import io.riverbed.format.write.concurrency.InstantHeartbeats;
import io.riverbed.format.write.concurrency.TableLock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer as a specification, on a MERGE_ON_READ table in a local folder: tasks write log
 * files with the core's handles, the committer turns their messages into instants.
 */
class TableCommitterTest {
  private static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .optionalString("name")
      .requiredLong("ts")
      .requiredString("dt")
      .endRecord();
  /** The schema with one more nullable column, as a task that added it writes. */
  private static final Schema WIDER = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .optionalString("name")
      .requiredLong("ts")
      .requiredString("dt")
      .optionalString("coupon")
      .endRecord();
  private static final String DT = "2024-01-01";
  private static final FileGroupId G1 = new FileGroupId(DT, "11111111-0000-0000-0000-000000000001-0");
  private static final FileGroupId G2 = new FileGroupId(DT, "22222222-0000-0000-0000-000000000002-0");
  private static final FileGroupId G3 = new FileGroupId(DT, "33333333-0000-0000-0000-000000000003-0");

  @TempDir
  java.nio.file.Path dir;

  private Table table;
  private final List<String> committedInstants = new ArrayList<>();

  @BeforeEach
  void createTable() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    TableConfig config = TableConfig.builder("orders").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .createSchema(SCHEMA.toString())
        .build();
    table = Table.create(fs, new Path(dir.toUri().toString(), "orders"), config);
  }

  // ---------------------------------------------------------------- idempotence and recovery

  @Test
  void recommittingTheSameCommitIsANoOp() {
    TableCommitter committer = committer("writer-a").postCommit((t, i, m) -> committedInstants.add(i.time()));
    String instant = committer.begin();
    Committable commit = Committable.of(1, instant, List.of(append(instant, 0, G1, "k1")));

    assertThat(committer.commit(commit)).isPresent();
    assertThat(committer.commit(commit)).isEmpty();
    assertThat(committer("writer-a").commit(commit)).as("a restarted writer's committer").isEmpty();

    assertThat(completedWrites()).containsExactly(instant);
    assertThat(committedInstants).containsExactly(instant);
    assertThat(rows()).containsOnlyKeys("k1");
  }

  @Test
  void recoveryCommitsExactlyTheCommitsLeftPendingByACrash() {
    TableCommitter before = committer("writer-a");
    List<Committable> commits = new ArrayList<>();
    for (int id = 1; id <= 3; id++) {
      String instant = before.begin();
      commits.add(Committable.of(id, instant, List.of(append(instant, 0, List.of(G1, G2, G3).get(id - 1), "k" + id))));
    }
    before.commit(commits.get(0));
    // crash: instants 2 and 3 have their files and are pending; a new committer of the same writer recovers
    assertThat(timeline().commitsTimeline().pending().times())
        .containsExactly(commits.get(1).instantTime(), commits.get(2).instantTime());

    TableCommitter after = committer("writer-a").postCommit((t, i, m) -> committedInstants.add(i.time()));
    List<Committable> left = after.filterCommitted(commits);
    assertThat(left).containsExactly(commits.get(1), commits.get(2));
    left.forEach(after::commit);
    commits.forEach(after::commit);

    assertThat(committedInstants).containsExactly(commits.get(1).instantTime(), commits.get(2).instantTime());
    assertThat(completedWrites()).containsExactly(commits.get(0).instantTime(), commits.get(1).instantTime(),
        commits.get(2).instantTime());
    assertThat(timeline().commitsTimeline().pending().isEmpty()).isTrue();
    assertThat(after.committedIdentifiers("writer-a")).containsExactly(1L, 2L, 3L);
    assertThat(after.committedIdentifiers("writer-b")).isEmpty();
    assertThat(after.filterCommitted(commits)).isEmpty();
    assertThat(rows()).containsOnlyKeys("k1", "k2", "k3");
  }

  /**
   * A file written for the instant that no message reports (a task that failed before reporting
   * it, or a later epoch of a Flink writer sharing the instant) is deleted before the commit
   * point: it never becomes visible with a commit that does not cover it.
   */
  @Test
  void fileOfTheInstantThatNoMessageReportsIsDeletedBeforeTheCommit() throws Exception {
    TableCommitter committer = committer("writer-a");
    String instant = committer.begin();
    CommitMessage reported = append(instant, 0, G1, "k1");
    CommitMessage unreported = append(instant, 1, G2, "k2");
    Path orphan = new Path(table.basePath(), unreported.writeStats().get(0).path());
    assertThat(table.fs().exists(orphan)).isTrue();

    committer.commit(Committable.of(1, instant, List.of(reported)));

    assertThat(table.fs().exists(orphan)).isFalse();
    assertThat(table.fs().exists(new Path(table.basePath(), reported.writeStats().get(0).path()))).isTrue();
    assertThat(rows()).containsOnlyKeys("k1");
  }

  @Test
  void aRolledBackInstantCannotBeCommitted() {
    TableCommitter committer = committer("writer-a");
    String instant = committer.begin();
    Committable commit = Committable.of(7, instant, List.of(append(instant, 0, G1, "k1")));
    Rollback.rollbackFailedWrites(table);

    assertThatThrownBy(() -> committer.commit(commit)).isInstanceOf(TableException.class)
        .hasMessageContaining(instant).hasMessageContaining("its writes are lost");
  }

  @Test
  void aTableUpgradedToVersionEightWhileTheWriterRanIsNotCommittedInto() {
    TableCommitter committer = committer("writer-a");
    String instant = committer.begin();
    Committable commit = Committable.of(1, instant, List.of(append(instant, 0, G1, "k1")));
    // what a Hudi 1.x writer's upgrade leaves in hoodie.properties (its timeline move aside)
    table.updateConfig(Map.of("hoodie.table.version", "8", "hoodie.timeline.layout.version", "2"));

    assertThatThrownBy(() -> committer.commit(commit)).isInstanceOf(TableException.class)
        .hasMessageContaining(instant).hasMessageContaining("changed from 6 to 8")
        .hasMessageContaining("hoodie.write.auto.upgrade=false");
    assertThat(completedWrites()).isEmpty();
  }

  @Test
  void commitRecordsWriterIdIdentifierAndWhatTheTasksContribute() {
    TableCommitter committer = committer("writer-a");
    String first = committer.begin();
    CommitMessage firstMessage = new CommitMessage(0, first, append(first, 0, G1, "k1").writeStats(), 0,
        Optional.of(new KafkaOffsets("orders", Map.of(0, 10L, 1, 20L))));
    committer.commit(new Committable(4, first, List.of(firstMessage), Map.of("riverbed.flink.job.id", "job-1")));
    String second = committer.begin();
    committer.commit(Committable.of(5, second, List.of(
        new CommitMessage(0, second, append(second, 0, G1, "k2").writeStats(), 2,
            Optional.of(new KafkaOffsets("orders", Map.of(0, 15L)))),
        new CommitMessage(1, second, append(second, 1, G2, "k3").writeStats(), 3, Optional.empty()))));

    Map<String, String> extra = metadata(second).extraMetadata();
    assertThat(extra).containsEntry(TableCommitter.WRITER_ID_KEY, "writer-a")
        .containsEntry(TableCommitter.IDENTIFIER_KEY, "5")
        .containsEntry(TableCommitter.STALE_RECORDS_KEY, "5")
        .containsEntry(KafkaOffsets.KEY, "orders,0:15,1:20")
        .containsKey(CommitMetadata.SCHEMA_KEY);
    assertThat(metadata(first).extraMetadata()).containsEntry("riverbed.flink.job.id", "job-1")
        .doesNotContainKey(TableCommitter.STALE_RECORDS_KEY);
    assertThat(metadata(second).fileIdsByPartition().get(DT)).containsExactlyInAnyOrder(G1.fileId(), G2.fileId());
  }

  // ---------------------------------------------------------------- conflicts

  @Test
  void anOlderInstantThatCommitsAfterANewerOneOnTheSameFileGroupFails() {
    seed(G1, "s");
    Race race = race(G1, G1);
    String ta = race.fromA().instantTime();
    String tb = race.fromB().instantTime();

    race.b().commit(race.fromB());
    assertThatThrownBy(() -> race.a().commit(race.fromA())).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("file group " + G1).hasMessageContaining(tb + ".deltacommit")
        .hasMessageContaining("writer writer-b");

    assertThat(timeline().commitsTimeline().pending().times()).as("the conflicting instant stays pending")
        .containsExactly(ta);
    Rollback.rollbackFailedWrites(table);
    assertThat(rows()).containsOnlyKeys("s", "b1");
  }

  @Test
  void aCommitCompletedWhileTheInstantWasInFlightOnTheSameFileGroupFailsIt() throws Exception {
    seed(G1, "s");
    Race race = race(G1, G1);
    String ta = race.fromA().instantTime();
    String tb = race.fromB().instantTime();
    awaitStorageClockPast(tb);

    race.a().commit(race.fromA());
    assertThatThrownBy(() -> race.b().commit(race.fromB())).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("file group " + G1).hasMessageContaining(ta + ".deltacommit");
    assertThat(completedWrites()).doesNotContain(tb);
  }

  @Test
  void concurrentWritersOnDifferentFileGroupsBothCommit() throws Exception {
    seed(G1, "s");
    seed(G2, "t");
    Race race = race(G1, G2);
    awaitStorageClockPast(race.fromB().instantTime());

    race.a().commit(race.fromA());
    race.b().commit(race.fromB());
    assertThat(completedWrites()).contains(race.fromA().instantTime(), race.fromB().instantTime());
    assertThat(rows()).containsOnlyKeys("s", "t", "a1", "b1");
  }

  @Test
  void aWritersOwnOlderInstantOnTheSameFileGroupIsNoConflict() throws Exception {
    seed(G1, "s");
    TableCommitter a = committer("writer-a");
    String first = a.begin();
    Committable c1 = Committable.of(1, first, List.of(append(first, 0, G1, "a1")));
    String second = a.begin();
    Committable c2 = Committable.of(2, second, List.of(append(second, 0, G1, "a2")));
    awaitStorageClockPast(second);

    a.commit(c1);
    a.commit(c2);
    assertThat(completedWrites()).contains(first, second);
    assertThat(rows()).containsOnlyKeys("s", "a1", "a2");
  }

  @Test
  void aCompactionPlannedBeforeTheInstantIsNoConflictEvenIfItCompletesWhileTheInstantIsInFlight() throws Exception {
    seed(G1, "s");
    String compaction = CompactionScheduler.of(table).execute().instantTime().orElseThrow();
    TableCommitter a = committer("writer-a");
    String ta = a.begin();
    Committable fromA = Committable.of(1, ta, List.of(append(ta, 0, G1, "a1")));
    awaitStorageClockPast(ta);
    CompactionRunner.of(table, compaction).execute();

    a.commit(fromA);
    assertThat(completedWrites()).contains(ta);
    assertThat(rows()).containsOnlyKeys("s", "a1");
  }

  @Test
  void aCompactionPlannedAfterTheInstantStartedOnTheSameFileGroupFailsIt() {
    seed(G1, "s");
    TableCommitter a = committer("writer-a");
    String ta = a.begin();
    Committable fromA = Committable.of(1, ta, List.of(append(ta, 0, G1, "a1")));
    // another tool plans a compaction of G1 while ta is in flight (Riverbed's scheduler would refuse)
    String compaction = laterThan(ta);
    var slice = FileSystemViewLoader.load(table, timeline()).latestSliceForWrite(G1).orElseThrow();
    var operation = new CompactionOperation(slice.baseInstant(),
        slice.logFiles().stream().map(l -> l.fileName()).toList(), null, G1.fileId(), DT, Map.of(), null);
    TimelineStore.at(table.fs(), table.metaPath())
        .createRequested(compaction, Action.COMPACTION, CompactionPlan.of(List.of(operation)).toBytes());

    assertThatThrownBy(() -> a.commit(fromA)).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("file group " + G1).hasMessageContaining(compaction + ".compaction.requested");
  }

  // ---------------------------------------------------------------- post-commit actions

  // ---------------------------------------------------------------- several writers

  @Test
  void withTheBucketIndexTwoNewFileGroupsOfOneBucketConflict() throws Exception {
    FileGroupId mine = new FileGroupId(DT, BucketIndex.newFileId(3));
    FileGroupId theirs = new FileGroupId(DT, BucketIndex.newFileId(3));
    TableCommitter a = committer("writer-a").bucketIndex(true);
    TableCommitter b = committer("writer-b").bucketIndex(true);
    String ta = a.begin();
    Committable fromA = Committable.of(1, ta, List.of(append(ta, 0, mine, "a1")));
    String tb = b.begin();
    Committable fromB = Committable.of(1, tb, List.of(append(tb, 1, theirs, "b1")));
    awaitStorageClockPast(tb);

    b.commit(fromB);
    assertThatThrownBy(() -> a.commit(fromA)).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("file group " + mine).hasMessageContaining("bucket 3")
        .hasMessageContaining(theirs.fileId()).hasMessageContaining(tb + ".deltacommit");
  }

  @Test
  void withoutTheBucketIndexFileGroupsConflictByFileIdOnly() throws Exception {
    FileGroupId mine = new FileGroupId(DT, BucketIndex.newFileId(3));
    FileGroupId theirs = new FileGroupId(DT, BucketIndex.newFileId(3));
    Race race = race(mine, theirs);
    awaitStorageClockPast(race.fromB().instantTime());
    race.b().commit(race.fromB());
    race.a().commit(race.fromA());
    assertThat(completedWrites()).contains(race.fromA().instantTime(), race.fromB().instantTime());
  }

  @Test
  void withSeveralWritersTheConflictCheckAndCommitPointRunUnderTheLockAndInstantsHaveHeartbeats() throws Exception {
    RecordingLock lock = new RecordingLock();
    TableCommitter a = concurrent(committer("writer-a"), lock, InstantHeartbeats.WriterKind.BATCH);
    List<Boolean> heldAtCheck = new ArrayList<>();
    a.beforeCommit(() -> heldAtCheck.add(lock.held));
    String instant = a.begin();
    assertThat(lock.acquired).as("begun under the lock").isEqualTo(1);
    assertThat(InstantHeartbeats.ownerOf(table, instant)).isPresent();

    a.commit(Committable.of(1, instant, List.of(append(instant, 0, G1, "a1"))));
    assertThat(heldAtCheck).containsExactly(true);
    assertThat(lock.held).isFalse();
    assertThat(lock.acquired).isEqualTo(2);
    assertThat(table.fs().exists(InstantHeartbeats.path(table, instant))).as("heartbeat stopped").isFalse();
  }

  @Test
  void aBatchCommitWaitsForThePendingStreamingInstantAndThenLosesTheConflict() throws Exception {
    seed(G1, "s");
    CountingLock sparkLock = new CountingLock(FileSystemTableLock.of(table, occ(Map.of())));
    TableCommitter flink = concurrent(committer("flink"), FileSystemTableLock.of(table, occ(Map.of())),
        InstantHeartbeats.WriterKind.STREAMING);
    TableCommitter spark = concurrent(committer("spark"), sparkLock, InstantHeartbeats.WriterKind.BATCH);
    String ts = spark.begin();
    Committable fromSpark = Committable.of(1, ts, List.of(append(ts, 1, G1, "b1")));
    String tf = flink.begin();
    Committable fromFlink = Committable.of(1, tf, List.of(append(tf, 0, G1, "a1")));

    var sparkCommit = java.util.concurrent.CompletableFuture.runAsync(() -> spark.commit(fromSpark));
    Await.await("the batch commit to try twice while the streaming instant is pending", Duration.ofSeconds(120))
        .every(Duration.ofMillis(20)).until(() -> sparkLock.acquired.get() >= 3 || sparkCommit.isDone());
    assertThat(completedWrites()).as("nothing committed while the streaming instant is pending").doesNotContain(ts);
    flink.commit(fromFlink);
    assertThatThrownBy(() -> sparkCommit.get(2, java.util.concurrent.TimeUnit.MINUTES))
        .hasCauseInstanceOf(CommitConflictException.class).hasMessageContaining("file group " + G1)
        .hasMessageContaining(tf + ".deltacommit").hasMessageContaining("writer flink");
    assertThat(completedWrites()).contains(tf).doesNotContain(ts);
  }

  @Test
  void aBatchCommitThatWaitedInVainForTheStreamingWriterFailsNamingIt() {
    FileSystemTableLock lock = FileSystemTableLock.of(table, occ(Map.of()));
    TableCommitter flink = TableCommitter.of(table, "flink").schema(SCHEMA).concurrency(lock,
        InstantHeartbeats.of(table, "flink", InstantHeartbeats.WriterKind.STREAMING), occ(Map.of()));
    TableCommitter spark = TableCommitter.of(table, "spark").schema(SCHEMA).concurrency(lock,
        InstantHeartbeats.of(table, "spark", InstantHeartbeats.WriterKind.BATCH),
        occ(Map.of(ConcurrencyOptions.STREAMING_WAIT, "200 ms", ConcurrencyOptions.LOCK_RETRY_WAIT, "20")));
    String ts = spark.begin();
    Committable fromSpark = Committable.of(1, ts, List.of(append(ts, 1, G2, "b1")));
    String tf = flink.begin();

    assertThatThrownBy(() -> spark.commit(fromSpark)).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("streaming writer flink").hasMessageContaining(tf)
        .hasMessageContaining(ConcurrencyOptions.STREAMING_WAIT);
    assertThat(completedWrites()).doesNotContain(ts);
  }

  /** A lock of one JVM that records whether it is held and how often it was taken. */
  private static final class RecordingLock implements TableLock {
    volatile boolean held;
    int acquired;

    @Override
    public Held acquire() {
      if (held) {
        throw new IllegalStateException("taken twice");
      }
      held = true;
      acquired++;
      return () -> held = false;
    }
  }

  private TableCommitter concurrent(TableCommitter committer, TableLock lock, InstantHeartbeats.WriterKind kind) {
    return committer.concurrency(lock, InstantHeartbeats.of(table, committer.writerId(), kind), occ(Map.of()));
  }

  private static ConcurrencyOptions occ(Map<String, String> conf) {
    Map<String, String> all = new java.util.HashMap<>(conf);
    all.put(ConcurrencyOptions.MODE, "optimistic_concurrency_control");
    return ConcurrencyOptions.fromMap(all);
  }

  /** Counts how often a lock was taken. */
  private static final class CountingLock implements TableLock {
    final java.util.concurrent.atomic.AtomicInteger acquired = new java.util.concurrent.atomic.AtomicInteger();
    private final TableLock lock;

    CountingLock(TableLock lock) {
      this.lock = lock;
    }

    @Override
    public Held acquire() {
      Held held = lock.acquire();
      acquired.incrementAndGet();
      return held;
    }
  }

  @Test
  void postCommitActionsRunOncePerCommitAndTheirFailureNeverUndoesIt() {
    List<String> failingCalls = new ArrayList<>();
    TableCommitter committer = committer("writer-a")
        .postCommit((t, i, m) -> {
          failingCalls.add(i.time());
          throw new IllegalStateException("metastore down");
        })
        .postCommit((t, i, m) -> {
          assertThat(m.writeStats()).isNotEmpty();
          committedInstants.add(i.time());
        });
    String first = committer.begin();
    Committable c1 = Committable.of(1, first, List.of(append(first, 0, G1, "k1")));
    String second = committer.begin();
    Committable c2 = Committable.of(2, second, List.of(append(second, 0, G2, "k2")));

    assertThat(committer.commit(c1)).isPresent();
    assertThat(committer.commit(c2)).isPresent();
    committer.commit(c1);

    assertThat(failingCalls).containsExactly(first, second);
    assertThat(committedInstants).containsExactly(first, second);
    assertThat(completedWrites()).containsExactly(first, second);
    assertThat(rows()).containsOnlyKeys("k1", "k2");
  }

  @Test
  void compactionTriggerSchedulesAfterTheConfiguredNumberOfDeltaCommits() {
    List<String> scheduled = new ArrayList<>();
    TableCommitter committer = committer("writer-a")
        .postCommit(CompactionTrigger.of(CompactionOptions.defaults(), 2, scheduled::add));
    String first = committer.begin();
    committer.commit(Committable.of(1, first, List.of(append(first, 0, G1, "k1"))));
    assertThat(scheduled).isEmpty();
    String second = committer.begin();
    committer.commit(Committable.of(2, second, List.of(append(second, 0, G1, "k2"))));

    assertThat(scheduled).hasSize(1);
    assertThat(timeline().pendingCompactions().times()).containsExactlyElementsOf(scheduled);
  }

  // ---------------------------------------------------------------- the message's byte form

  @Test
  void commitMessageRoundTripsThroughItsBytesAndJavaSerialization() throws Exception {
    String instant = committer("writer-a").begin();
    CommitMessage message = new CommitMessage(3, instant, append(instant, 3, G1, "k1", "k2").writeStats(), 7,
        Optional.of(new KafkaOffsets("orders", Map.of(2, 99L))));

    assertThat(CommitMessage.fromBytes(message.toBytes())).isEqualTo(message);
    var bytes = new ByteArrayOutputStream();
    try (var out = new ObjectOutputStream(bytes)) {
      out.writeObject(message);
    }
    try (var in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(message);
    }
    CommitMessage withSchema = new CommitMessage(3, instant, message.writeStats(), 0, Optional.empty(),
        Optional.of(WIDER));
    assertThat(CommitMessage.fromBytes(withSchema.toBytes())).isEqualTo(withSchema);
    byte[] future = message.toBytes();
    future[0] = 3;
    assertThatThrownBy(() -> CommitMessage.fromBytes(future)).isInstanceOf(TableException.class)
        .hasMessageContaining("version 3");
  }

  @Test
  void aMessageOfTheFirstByteFormWithoutAWrittenSchemaIsStillRead() {
    String instant = committer("writer-a").begin();
    CommitMessage message = new CommitMessage(3, instant, append(instant, 3, G1, "k1").writeStats(), 7,
        Optional.of(new KafkaOffsets("orders", Map.of(2, 99L))));
    byte[] current = message.toBytes();
    // version 1 ended after the stats: drop the written schema's (empty) string, an int length of 0
    byte[] first = java.util.Arrays.copyOf(current, current.length - 4);
    first[0] = 1;
    assertThat(CommitMessage.fromBytes(first)).isEqualTo(message);
  }

  // ---------------------------------------------------------------- columns added by tasks

  @Test
  void aCommitRecordsTheUnionOfTheSchemasItsTasksWroteInAndKeepsItForTheNextCommit() {
    TableCommitter committer = committer("writer-a");
    String first = committer.begin();
    Schema otherNew = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
        .requiredString("id").optionalString("name").requiredLong("ts").requiredString("dt")
        .optionalBoolean("vip").endRecord();
    committer.commit(Committable.of(1, first, List.of(
        new CommitMessage(0, first, append(first, 0, G1, "k1").writeStats(), 0, Optional.empty(), Optional.of(WIDER)),
        new CommitMessage(1, first, append(first, 1, G2, "k2").writeStats(), 0, Optional.empty(),
            Optional.of(otherNew)))));
    assertThat(schemaOf(first).getFields()).extracting(Schema.Field::name)
        .containsExactly("id", "name", "ts", "dt", "coupon", "vip");

    String second = committer.begin();
    committer.commit(Committable.of(2, second, List.of(append(second, 0, G1, "k3"))));
    assertThat(schemaOf(second)).isEqualTo(schemaOf(first));
  }

  @Test
  void aTasksSchemaThatConflictsWithTheTablesFailsTheCommitNamingColumnTaskAndInstant() {
    TableCommitter committer = committer("writer-a");
    String instant = committer.begin();
    Schema stringTs = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
        .requiredString("id").optionalString("name").requiredString("ts").requiredString("dt").endRecord();
    assertThatThrownBy(() -> committer.commit(Committable.of(1, instant, List.of(new CommitMessage(2, instant,
        append(instant, 2, G1, "k1").writeStats(), 0, Optional.empty(), Optional.of(stringTs))))))
        .hasMessageContaining("column 'ts'").hasMessageContaining("task 2").hasMessageContaining(instant);
    assertThat(completedWrites()).isEmpty();
  }

  // ---------------------------------------------------------------- helpers

  private Schema schemaOf(String instant) {
    return new Schema.Parser().parse(metadata(instant).schema().orElseThrow());
  }

  private TableCommitter committer(String writerId) {
    return TableCommitter.of(table, writerId).schema(SCHEMA);
  }

  /** Task {@code task} appends records with {@code keys} to {@code group} for {@code instant}. */
  private CommitMessage append(String instant, int task, FileGroupId group, String... keys) {
    RecordKeyer keyer = RecordKeyer.forTable(table.config());
    List<WriteRecord> records = new ArrayList<>();
    for (String key : keys) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", key);
      r.put("name", "n-" + key);
      r.put("ts", 1L);
      r.put("dt", DT);
      records.add(keyer.toWriteRecord(r));
    }
    var context = WriteTaskContext.of(table, instant, task, 4, 0, SCHEMA, WriteOptions.defaults());
    var slice = FileSystemViewLoader.load(table, timeline()).latestSliceForWrite(group);
    WriteStat stat = AppendHandle.of(context, group, slice).append(records).orElseThrow();
    return CommitMessage.of(task, instant, List.of(stat));
  }

  /** Two writers with an instant each in flight, a's opened first. */
  private record Race(TableCommitter a, Committable fromA, TableCommitter b, Committable fromB) {}

  /** Writer a opens an instant and appends row "a1" to {@code groupA}; then writer b, row "b1" to {@code groupB}. */
  private Race race(FileGroupId groupA, FileGroupId groupB) {
    TableCommitter a = committer("writer-a");
    TableCommitter b = committer("writer-b");
    String ta = a.begin();
    Committable fromA = Committable.of(1, ta, List.of(append(ta, 0, groupA, "a1")));
    String tb = b.begin();
    Committable fromB = Committable.of(1, tb, List.of(append(tb, 1, groupB, "b1")));
    return new Race(a, fromA, b, fromB);
  }

  /** A committed row {@code key} in {@code group}, by a writer of its own. */
  private void seed(FileGroupId group, String key) {
    TableCommitter seeder = committer("seeder");
    String instant = seeder.begin();
    seeder.commit(Committable.of(1, instant, List.of(append(instant, 0, group, key))));
  }

  /**
   * Waits until the file system's clock has passed the modification time of {@code instant}'s
   * requested file, so what is written next is "after the instant started" however coarse the
   * clock is.
   */
  private void awaitStorageClockPast(String instant) throws Exception {
    FileSystem fs = table.fs();
    Path requested = new Path(table.metaPath(), instant + ".deltacommit.requested");
    long started = fs.getFileStatus(requested).getModificationTime();
    java.nio.file.Path probe = dir.resolve("clock-probe");
    Await.await("the storage clock to pass " + started, Duration.ofSeconds(30)).every(Duration.ofMillis(1)).until(() -> {
      Files.writeString(probe, "x");
      return Files.getLastModifiedTime(probe).toMillis() > started;
    });
  }

  private String laterThan(String instant) {
    return Long.toString(Long.parseLong(instant) + 1);
  }

  private Timeline timeline() {
    return TimelineStore.at(table.fs(), table.metaPath()).load();
  }

  private List<String> completedWrites() {
    return timeline().ofAction(Action.DELTA_COMMIT).completed().times();
  }

  private CommitMetadata metadata(String instant) {
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    Instant done = timeline().find(instant).orElseThrow();
    return CommitMetadata.fromJson(store.read(done), store.pathOf(done).toString());
  }

  /** The snapshot through the core's reader: record key → row. */
  private Map<String, GenericRecord> rows() {
    Map<String, GenericRecord> rows = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table, QuerySpec.snapshot())) {
      assertThat(rows.put(r.get(MetaFields.RECORD_KEY).toString(), r)).as("duplicate key").isNull();
    }
    return rows;
  }
}
