package io.riverbed.format.write;

import static io.riverbed.format.write.CompactionTestTable.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.CompactionPlan;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineChangedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionSchedulerTest {
  @TempDir java.nio.file.Path dir;
  CompactionTestTable t;

  @BeforeEach
  void setUp() throws IOException {
    t = CompactionTestTable.create(dir, PayloadMergeRule.OVERWRITE_WITH_LATEST);
  }

  private CompactionScheduler scheduler() {
    return CompactionScheduler.of(t.table()).clock(t.clock());
  }

  @Test
  void planCoversGroupsWithLogsAndNamesFilesNotPaths() throws IOException {
    String t1 = t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"), upsert("p1", "b", "k2", 1, "y"));
    String t2 = t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"), upsert("p2", "c", "k3", 1, "z"));
    t.deltaCommit(upsert("p1", "a", "k1", 3, "x3"));

    CompactionScheduler.Result result = scheduler().extraMetadata(Map.of("checkpoint", "42")).execute();

    assertThat(result.isScheduled()).isTrue();
    String c = result.instantTime().orElseThrow();
    assertThat(c).isGreaterThan(t.timeline().completed().last().orElseThrow().time());
    byte[] bytes = t.store().read(Instant.requested(c, Action.COMPACTION));
    assertThat(Arrays.copyOf(bytes, 4)).isEqualTo("Obj\u0001".getBytes(StandardCharsets.ISO_8859_1));
    try (var reader = new DataFileReader<GenericRecord>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
      assertThat(reader.getSchema().getFullName()).isEqualTo("org.apache.hudi.avro.model.HoodieCompactionPlan");
      GenericRecord only = reader.next();
      assertThat(only.get("version")).isEqualTo(2);
      assertThat(reader.hasNext()).isFalse();
    }
    CompactionPlan plan = CompactionPlan.fromBytes(bytes, "test");
    assertThat(plan).isEqualTo(result.plan().orElseThrow());
    assertThat(plan.extraMetadata()).containsEntry("checkpoint", "42");
    assertThat(plan.operations()).extracting(CompactionOperation::fileId).containsExactly("a", "c");

    CompactionOperation a = plan.operations().get(0);
    assertThat(a.partitionPath()).isEqualTo("p1");
    assertThat(a.baseInstantTime()).isEqualTo(t1);
    assertThat(a.dataFilePath()).isEqualTo("a_0-1-0_" + t1 + ".parquet");
    assertThat(a.deltaFilePaths()).containsExactly(".a_" + t1 + ".log.1_0-1-0", ".a_" + t1 + ".log.2_0-1-0");
    assertThat(a.metrics()).containsEntry("TOTAL_LOG_FILES", 2.0).containsKeys("TOTAL_LOG_FILES_SIZE",
        "TOTAL_IO_READ_MB", "TOTAL_IO_WRITE_MB", "TOTAL_IO_MB");
    assertThat(a.metrics().get("TOTAL_LOG_FILES_SIZE")).isPositive();

    CompactionOperation logOnly = plan.operations().get(1);
    assertThat(logOnly.partitionPath()).isEqualTo("p2");
    assertThat(logOnly.baseInstantTime()).isEqualTo(t2);
    assertThat(logOnly.dataFilePath()).isNull();
    assertThat(logOnly.deltaFilePaths()).containsExactly(".c_" + t2 + ".log.1_0-1-0");
  }

  /** A listing that shows a compaction pending whose plan archival removed since: the view refuses it as stale. */
  @Test
  void aViewFromAListingWhosePendingPlanWasArchivedSinceIsRefusedAsStale() throws IOException {
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String c = scheduler().execute().instantTime().orElseThrow();
    var listed = t.timeline();
    assertThat(FileSystemViewLoader.pendingCompactions(t.store(), listed)).isNotEmpty();
    t.table().fs().delete(t.store().pathOf(Instant.requested(c, Action.COMPACTION)), false);

    assertThatThrownBy(() -> FileSystemViewLoader.pendingCompactions(t.store(), listed))
        .isInstanceOf(TimelineChangedException.class).hasMessageContaining(c);
  }

  @Test
  void refusesWhileAnEarlierWriteIsPending() {
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String pending = t.pendingDeltaCommit(upsert("p1", "a", "k1", 3, "x3"));

    CompactionScheduler.Result result = scheduler().execute();

    assertThat(result.isScheduled()).isFalse();
    assertThat(result.reason()).contains(pending).contains("pending write");
    assertThat(t.timeline().pendingCompactions().isEmpty()).isTrue();
  }

  @Test
  void explicitInstantBetweenLastCompletedAndPendingWriteIsAllowed() {
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    String done = t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String c = t.clock().nextAfter(done);
    t.pendingDeltaCommit(upsert("p1", "b", "k9", 3, "y"));

    CompactionScheduler.Result result = CompactionScheduler.of(t.table()).instantTime(c).execute();

    assertThat(result.instantTime()).contains(c);
  }

  @Test
  void explicitInstantNotAfterTheLastCompletedInstantIsAnError() {
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    String done = t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));

    assertThatThrownBy(() -> CompactionScheduler.of(t.table()).instantTime(done).execute())
        .isInstanceOf(TableException.class).hasMessageContaining(done);
  }

  @Test
  void groupsInAPendingCompactionAreNotPlannedAgain() {
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"));
    String first = scheduler().execute().instantTime().orElseThrow();
    t.deltaCommit(upsert("p1", "a", "k1", 3, "x3"), upsert("p1", "b", "k2", 1, "y"));

    CompactionScheduler.Result second = scheduler().execute();

    assertThat(second.instantTime().orElseThrow()).isGreaterThan(first);
    assertThat(second.plan().orElseThrow().operations()).extracting(CompactionOperation::fileId).containsExactly("b");
  }

  @Test
  void nothingToCompactWritesNoPlan() {
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"));

    CompactionScheduler.Result result = scheduler().execute();

    assertThat(result.isScheduled()).isFalse();
    assertThat(t.timeline().pendingCompactions().isEmpty()).isTrue();
  }

  @Test
  void thresholdsSelectOnlyGroupsWithEnoughLogFiles() {
    t.insertBaseFiles(upsert("p1", "a", "k1", 1, "x"), upsert("p1", "b", "k2", 1, "y"));
    t.deltaCommit(upsert("p1", "a", "k1", 2, "x2"), upsert("p1", "b", "k2", 2, "y2"));
    t.deltaCommit(upsert("p1", "a", "k1", 3, "x3"));

    CompactionScheduler.Result result = scheduler()
        .options(CompactionOptions.fromMap(Map.of(CompactionOptions.LOG_FILE_NUM_THRESHOLD, "2"))).execute();

    assertThat(result.plan().orElseThrow().operations()).extracting(CompactionOperation::fileId).containsExactly("a");
  }
}
