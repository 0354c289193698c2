package io.riverbed.flink.sink;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.FaultyFileSystem.Fault;
import io.riverbed.flink.sink.FaultyFileSystem.Op;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer on a file system that fails chosen calls ({@link FaultyFileSystem}): a data file whose
 * write fails mid-file, a commit's timeline file that cannot be written, a torn (half-written)
 * data file. Each fault fails a task or the coordinator; the job restarts from its last checkpoint
 * and goes on. Afterwards the table equals the model exactly, no write instant is pending, every
 * file a completed commit references is there in full, and no file a fault cut short is
 * referenced, so no snapshot reader can see its rows.
 *
 * <p>Each fault fires on a fixed (n-th) matching call, so each test forces its fault at the same
 * point of the stream on every run.
 */
class FaultyStorageJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  /** Log files of the table's partitions ({@code .fileId_baseInstant.log.version_writeToken}), not their markers. */
  private static final String LOG_FILES = "(?!.*/\\.hoodie/).*/\\.[^/]+\\.log\\.\\d+_\\d+-\\d+-\\d+";
  /** Base files of the table's partitions. */
  private static final String BASE_FILES = "(?!.*/\\.hoodie/).*/[^/.][^/]*\\.parquet";
  /** The completed file of a delta commit or commit, renamed into place from .hoodie/.temp. */
  private static final String COMPLETED_COMMIT = ".*/\\.hoodie/\\d+\\.(deltacommit|commit)";
  /** The temporary file of a write's inflight instant ({@code T.deltacommit.inflight}, {@code T.inflight}), before its rename. */
  private static final String INFLIGHT_TEMP = ".*/\\.hoodie/\\.temp/\\.\\d+\\.(deltacommit\\.)?inflight\\..*";
  /** The temporary file of a completed delta commit or commit, before its rename. */
  private static final String COMPLETED_COMMIT_TEMP = ".*/\\.hoodie/\\.temp/\\.\\d+\\.(deltacommit|commit)\\.[0-9a-f-]{36}";
  /** A write's inflight instant file; only a rollback deletes it. */
  private static final String WRITE_INFLIGHT = ".*/\\.hoodie/\\d+\\.(deltacommit\\.)?inflight";
  private static final int RESTARTS = 10;

  @TempDir
  Path dir;

  private String testId;

  @AfterEach
  void disarm() {
    FaultyFileSystem.disarm(testId);
  }

  @Test
  void failedLogAppendMidStreamIsRetriedAndLosesNothingMergeOnRead() throws Exception {
    var faults = arm("mor-log-write", Op.WRITE, LOG_FILES, 6);
    runAndVerify("MERGE_ON_READ", faults);
  }

  @Test
  void failedBaseFileWriteMidStreamIsRetriedAndLosesNothingCopyOnWrite() throws Exception {
    var faults = arm("cow-base-write", Op.WRITE, BASE_FILES, 6);
    runAndVerify("COPY_ON_WRITE", faults);
  }

  @Test
  void failedCommitAndInflightTimelineFilesAreRetriedMergeOnRead() throws Exception {
    var faults = arm("mor-timeline", Op.RENAME, COMPLETED_COMMIT, 3);
    faults.add(FaultyFileSystem.arm(testId, Op.TORN, INFLIGHT_TEMP, 6));
    runAndVerify("MERGE_ON_READ", faults);
  }

  @Test
  void failedCommitAndInflightTimelineFilesAreRetriedCopyOnWrite() throws Exception {
    var faults = arm("cow-timeline", Op.RENAME, COMPLETED_COMMIT, 3);
    faults.add(FaultyFileSystem.arm(testId, Op.TORN, INFLIGHT_TEMP, 6));
    runAndVerify("COPY_ON_WRITE", faults);
  }

  @Test
  void tornLogFileIsNeverReferencedAndItsRowsNeverReadMergeOnRead() throws Exception {
    var faults = arm("mor-torn-log", Op.TORN, LOG_FILES, 5);
    runAndVerify("MERGE_ON_READ", faults);
  }

  @Test
  void tornBaseFileIsNeverReferencedAndItsRowsNeverReadCopyOnWrite() throws Exception {
    var faults = arm("cow-torn-base", Op.TORN, BASE_FILES, 5);
    runAndVerify("COPY_ON_WRITE", faults);
  }

  /**
   * A log file that cannot be created, and a completed commit file written in full whose close
   * fails (so the coordinator cannot know it is whole and must not rename it into place).
   */
  @Test
  void failedLogCreateAndCommitFileCloseAreRetriedMergeOnRead() throws Exception {
    var faults = arm("mor-create-close", Op.CREATE, LOG_FILES, 4);
    faults.add(FaultyFileSystem.arm(testId, Op.CLOSE, COMPLETED_COMMIT_TEMP, 2));
    runAndVerify("MERGE_ON_READ", faults);
  }

  /** A base file a merge must read cannot be opened; a completed commit file's close fails. */
  @Test
  void failedBaseFileOpenForMergeAndCommitFileCloseAreRetriedCopyOnWrite() throws Exception {
    var faults = arm("cow-open-close", Op.OPEN, BASE_FILES, 3);
    faults.add(FaultyFileSystem.arm(testId, Op.CLOSE, COMPLETED_COMMIT_TEMP, 2));
    runAndVerify("COPY_ON_WRITE", faults);
  }

  /**
   * The rollback of the failed write, on restart, cannot delete the failed instant's inflight file:
   * the recovery fails the job again, and the next attempt resumes the rollback from its plan.
   */
  @Test
  void failedRollbackOnRestartIsResumedMergeOnRead() throws Exception {
    var faults = arm("mor-rollback", Op.WRITE, LOG_FILES, 6);
    faults.add(FaultyFileSystem.arm(testId, Op.DELETE, WRITE_INFLIGHT, 1));
    runAndVerify("MERGE_ON_READ", faults);
  }

  @Test
  void failedRollbackOnRestartIsResumedCopyOnWrite() throws Exception {
    var faults = arm("cow-rollback", Op.WRITE, BASE_FILES, 6);
    faults.add(FaultyFileSystem.arm(testId, Op.DELETE, WRITE_INFLIGHT, 1));
    runAndVerify("COPY_ON_WRITE", faults);
  }

  /**
   * A log append that never returns: the writer cannot take the checkpoint barrier, the checkpoint
   * times out and fails the job; cancelling the task interrupts the stalled write, and the job
   * restarts from its last checkpoint.
   */
  @Test
  void stalledLogAppendTimesOutTheCheckpointAndIsRetriedMergeOnRead() throws Exception {
    var faults = arm("mor-stalled-log", Op.STALL, LOG_FILES, 6);
    runAndVerify("MERGE_ON_READ", faults, env -> {
      env.getCheckpointConfig().setCheckpointTimeout(5_000);
      env.getCheckpointConfig().setTolerableCheckpointFailureNumber(0);
    });
  }

  private List<Fault> arm(String id, Op op, String pathRegex, int nth) {
    testId = id;
    List<Fault> faults = new ArrayList<>();
    faults.add(FaultyFileSystem.arm(testId, op, pathRegex, nth));
    return faults;
  }

  private void runAndVerify(String type, List<Fault> faults) throws Exception {
    runAndVerify(type, faults, env -> {});
  }

  private void runAndVerify(String type, List<Fault> faults, Consumer<StreamExecutionEnvironment> tune)
      throws Exception {
    var stream = changes(testId.hashCode(), 4_000, 8, 0.30, 0.03, 0.01);
    Map<String, String> options = options(dir, type);
    options.put("path", FaultyFileSystem.uri(testId, dir.resolve("table")));
    options.putAll(FaultyFileSystem.writerOptions());
    options.put("write.batch.size", "0.05");

    write(testId, stream, options, 2, RESTARTS, 0, tune);

    List<String> cutShort = new ArrayList<>();
    for (Fault fault : faults) {
      assertThat(fault.firedOn()).as("%s fired", fault).hasSize(1);
      if (fault.cutsShort()) {
        cutShort.addAll(fault.firedOn());
      }
    }
    Table table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    assertCommittedFilesIntact(table, cutShort);
  }

  /** Every file a completed commit references exists in full (base files at their recorded size); none was cut short. */
  private static void assertCommittedFilesIntact(Table table, List<String> cutShort) throws IOException {
    var store = TimelineStore.at(table.fs(), table.metaPath());
    int stats = 0;
    for (Instant instant : store.load().commitsTimeline().completed().instants()) {
      var metadata = CommitMetadata.fromJson(store.read(instant), store.pathOf(instant).toString());
      for (WriteStat stat : metadata.writeStats()) {
        var path = new org.apache.hadoop.fs.Path(table.basePath(), stat.path());
        assertThat(table.fs().exists(path)).as("%s of %s exists", path, instant).isTrue();
        long length = table.fs().getFileStatus(path).getLen();
        if (stat.delta() == null) {
          assertThat(length).as("length of base file %s of %s", path, instant).isEqualTo(stat.fileSizeInBytes());
        } else {
          assertThat(length).as("length of log file %s of %s", path, instant)
              .isGreaterThanOrEqualTo(stat.fileSizeInBytes());
        }
        assertThat(cutShort).as("files cut short by a fault, referenced by %s", instant)
            .doesNotContain(path.toUri().getPath());
        stats++;
      }
    }
    assertThat(stats).as("write stats of completed commits").isPositive();
  }
}
