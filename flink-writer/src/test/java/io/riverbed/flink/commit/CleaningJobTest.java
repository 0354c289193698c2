package io.riverbed.flink.commit;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.assertNoPendingWrites;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.expected;
import static io.riverbed.flink.sink.WriterFixtures.read;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.ChunkedSource;
import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.fs.FileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write job cleans, then archives, after its commits ({@code clean.async.enabled} and
 * {@code hoodie.archive.automatic}, the defaults): a
 * MERGE_ON_READ job compacting every 2 delta commits and retaining 2 commits, one chunk per
 * commit. The last chunk is held back until a clean has completed (cleans run on their own
 * thread, so nothing else orders them against the job's end), so every assertion holds however
 * slow the machine is; how far the cleans got by the end is not asserted, only what the newest
 * completed one kept and deleted.
 */
class CleaningJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static final int CHUNKS = 16;

  @TempDir
  Path dir;

  private Map<String, String> options(boolean clean) {
    var o = WriterFixtures.options(dir, "MERGE_ON_READ");
    o.put(FlinkWriteOptions.COMPACTION_ASYNC, "true");
    o.put(FlinkWriteOptions.COMPACTION_DELTA_COMMITS, "2");
    o.put(CleanOptions.FLINK_RETAIN_COMMITS, "2");
    o.put(FlinkWriteOptions.CLEAN_ASYNC, Boolean.toString(clean));
    return o;
  }

  @Test
  void mergeOnReadJobCleansOldSlicesAndTimeTravelInsideRetentionStillAnswers() throws Exception {
    List<List<Change>> stream = changes(21, 3200, CHUNKS, 0.5, 0.02, 0.02);
    var options = options(true);
    String name = "clean-mor";
    ChunkedSource.holdBefore(name, CHUNKS - 1, () -> !completedCleans(table(options)).isEmpty());
    // one idle checkpoint after each chunk: a commit's compaction check never sees the next chunk's instant open
    write(name, stream, options, 2, 0, 1);

    Table table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    List<CleanMetadata> cleans = completedCleans(table);
    assertThat(cleans).isNotEmpty();
    assertThat(cleans.stream().mapToInt(CleanMetadata::totalFilesDeleted).sum()).isPositive();

    // what the newest completed clean kept: in each file group at most the one slice before its earliest
    // retained instant (which time travel to that instant reads); every file a clean deleted is gone
    String earliestRetained = cleans.get(cleans.size() - 1).earliestCommitToRetain();
    assertThat(earliestRetained).isNotEmpty();
    Map<String, TreeSet<String>> slices = slicesByFileGroup(table);
    assertThat(slices).allSatisfy((group, bases) -> assertThat(bases.headSet(earliestRetained))
        .as("slices of %s older than the earliest retained instant %s", group, earliestRetained)
        .hasSizeLessThanOrEqualTo(1));
    TreeSet<String> onDisk = dataFiles(table);
    for (CleanMetadata clean : cleans) {
      clean.partitionMetadata().values().forEach(p -> assertThat(onDisk).doesNotContainAnyElementsOf(
          p.successDeleteFiles()));
    }

    int checked = checkTimeTravelFrom(table, earliestRetained, stream, ChunkedSource.positionsAtCheckpoints(name));
    assertThat(checked).as("retained write instants checked by time travel").isPositive();
    System.out.printf("CLEANING JOB: %d completed cleans, %d files deleted, earliest retained %s, %d data files in "
        + "%d file groups (at most %d slices per group), %d retained instants time-travelled%n", cleans.size(),
        cleans.stream().mapToInt(CleanMetadata::totalFilesDeleted).sum(), earliestRetained, onDisk.size(),
        slices.size(), maxSlices(slices), checked);
  }

  @Test
  void withCleanAsyncDisabledTheJobNeverCleans() throws Exception {
    List<List<Change>> stream = changes(21, 3200, CHUNKS, 0.5, 0.02, 0.02);
    var options = options(false);
    write("clean-disabled", stream, options, 2, 0, 1);

    Table table = table(options);
    assertTableHolds(table, stream);
    var timeline = TimelineStore.at(table.fs(), table.metaPath()).load();
    assertThat(timeline.ofAction(Action.CLEAN).instants()).as("clean instants").isEmpty();
    // what the cleaning job removes is there without it: groups with several slices before the
    // instant a clean retaining 2 commits would keep from
    List<Instant> writes = timeline.writeTimeline().completed().instants();
    String wouldRetain = writes.get(writes.size() - 2).time();
    Map<String, TreeSet<String>> slices = slicesByFileGroup(table);
    assertThat(slices.values()).anySatisfy(bases -> assertThat(bases.headSet(wouldRetain)).hasSizeGreaterThan(1));
    System.out.printf("NO CLEANING: %d data files in %d file groups (at most %d slices per group)%n",
        dataFiles(table).size(), slices.size(), maxSlices(slices));
  }

  @Test
  void mergeOnReadJobArchivesOldInstantsAfterItsCleansAndLosesNone() throws Exception {
    List<List<Change>> stream = changes(22, 3200, CHUNKS, 0.5, 0.02, 0.02);
    var options = options(true);
    options.put(ArchiveOptions.FLINK_MIN_COMMITS, "4");
    options.put(ArchiveOptions.FLINK_MAX_COMMITS, "6");
    String name = "archive-mor";
    ChunkedSource.holdBefore(name, CHUNKS - 1, () -> !ArchivedTimeline.load(table(options)).instants().isEmpty());
    write(name, stream, options, 2, 0, 1);

    Table table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    List<Instant> archived = ArchivedTimeline.load(table).timeline().commitsTimeline().completed().instants();
    assertThat(archived).as("commits the job archived").isNotEmpty();
    var active = table.refreshTimeline();
    assertThat(active.commitsTimeline().completed().first().orElseThrow().time())
        .as("the active timeline starts after what was archived").isGreaterThan(archived.get(archived.size() - 1).time());
    // no commit is in both timelines (archival removes what it wrote into the archive)
    var all = new TreeSet<String>();
    archived.forEach(i -> assertThat(all.add(i.time())).isTrue());
    active.commitsTimeline().completed().instants().forEach(i -> assertThat(all.add(i.time())).as("%s twice", i).isTrue());
    // the job's services run after commits on their own thread, so its last rounds may have been skipped or
    // still run: archival never passes what the last clean retained, so the next commit's round, a clean
    // then an archival, brings the timeline within bounds
    Cleaner.of(table).options(CleanOptions.fromFlinkMap(options)).execute();
    Archiver.of(table).options(ArchiveOptions.fromFlinkMap(options)).execute();
    assertThat(table.refreshTimeline().writeTimeline().completed().instants().size()).as("completed commits kept")
        .isBetween(4, 6);
    System.out.printf("ARCHIVING JOB: %d commits archived, %d active after a last archival%n", archived.size(),
        table.timeline().writeTimeline().completed().instants().size());
  }

  @Test
  void aJobThatFailsMidCleanAndMidArchiveFinishesBothAfterItsRestartAndLosesNothing() throws Exception {
    List<List<Change>> stream = changes(23, 3200, CHUNKS, 0.5, 0.02, 0.02);
    var options = options(true);
    options.put(ArchiveOptions.FLINK_MIN_COMMITS, "4");
    options.put(ArchiveOptions.FLINK_MAX_COMMITS, "6");
    String name = "services-faults";
    FaultInjection.reset();
    FaultInjection.arm(FaultInjection.SERVICES_DURING_CLEAN, 2);
    FaultInjection.arm(FaultInjection.SERVICES_DURING_ARCHIVE, 1);
    // the last chunk waits until both faults fired and a clean and an archival completed after them
    ChunkedSource.holdBefore(name, CHUNKS - 1, () -> FaultInjection.fired(FaultInjection.SERVICES_DURING_CLEAN) == 1
        && FaultInjection.fired(FaultInjection.SERVICES_DURING_ARCHIVE) == 1
        && FaultInjection.passes(FaultInjection.SERVICES_DURING_CLEAN) > 2
        && FaultInjection.passes(FaultInjection.SERVICES_DURING_ARCHIVE) > 1);
    try {
      write(name, stream, options, 2, 3, 1);
    } finally {
      FaultInjection.reset();
    }

    Table table = table(options);
    assertTableHolds(table, stream);
    assertNoPendingWrites(table);
    assertThat(completedCleans(table)).isNotEmpty();
    assertThat(ArchivedTimeline.load(table).instants()).isNotEmpty();
    var active = table.refreshTimeline();
    assertThat(active.ofAction(Action.CLEAN).pending().instants().size()).as("pending cleans").isLessThanOrEqualTo(1);
    var archivedTimes = new TreeSet<String>();
    ArchivedTimeline.load(table).timeline().commitsTimeline().completed().instants().forEach(i -> archivedTimes.add(i.time()));
    active.commitsTimeline().completed().instants().forEach(i -> assertThat(archivedTimes).as("in both timelines")
        .doesNotContain(i.time()));
    String earliestRetained = completedCleans(table).get(completedCleans(table).size() - 1).earliestCommitToRetain();
    assertThat(checkTimeTravelFrom(table, earliestRetained, stream, ChunkedSource.positionsAtCheckpoints(name)))
        .as("retained instants time-travelled").isPositive();
  }

  private static List<CleanMetadata> completedCleans(Table table) {
    var store = TimelineStore.at(table.fs(), table.metaPath());
    List<CleanMetadata> out = new ArrayList<>();
    for (Instant clean : store.load().ofAction(Action.CLEAN).completed().instants()) {
      out.add(CleanMetadata.fromBytes(store.read(clean), store.pathOf(clean).toString()));
    }
    return out;
  }

  /** partition/file id → base instants of its slices on storage. */
  private static Map<String, TreeSet<String>> slicesByFileGroup(Table table) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    for (String partition : table.listPartitions()) {
      for (FileStatus st : FileSystemViewLoader.listDataFiles(table, partition)) {
        String file = st.getPath().getName();
        var base = FileNames.parseBaseFileName(file);
        String fileId = base.map(FileNames.BaseFileName::fileId)
            .orElseGet(() -> FileNames.parseLogFileName(file).orElseThrow().fileId());
        String instant = base.map(FileNames.BaseFileName::instantTime)
            .orElseGet(() -> FileNames.parseLogFileName(file).orElseThrow().baseInstant());
        out.computeIfAbsent(partition + "/" + fileId, g -> new TreeSet<>()).add(instant);
      }
    }
    return out;
  }

  private static int maxSlices(Map<String, TreeSet<String>> slices) {
    return slices.values().stream().mapToInt(TreeSet::size).max().orElse(0);
  }

  private static TreeSet<String> dataFiles(Table table) {
    TreeSet<String> out = new TreeSet<>();
    for (String partition : table.listPartitions()) {
      FileSystemViewLoader.listDataFiles(table, partition).forEach(st -> out.add(st.getPath().getName()));
    }
    return out;
  }

  /**
   * Time travel to each completed write instant at or after {@code from} (the newest one of its
   * checkpoint) equals the model of the chunks emitted before that checkpoint's barrier.
   *
   * @return how many instants were checked
   */
  private static int checkTimeTravelFrom(Table table, String from, List<List<Change>> chunks,
      Map<Long, Integer> positions) {
    var store = TimelineStore.at(table.fs(), table.metaPath());
    Map<Long, Instant> newestOfCheckpoint = new HashMap<>();
    for (Instant instant : store.load().commitsTimeline().completed().instants()) {
      CommitMetadata metadata = CommitMetadata.fromJson(store.read(instant), store.pathOf(instant).toString());
      if (metadata.compacted() || instant.time().compareTo(from) < 0) {
        continue;
      }
      newestOfCheckpoint.put(Long.parseLong(metadata.extraMetadata().get(WriteCoordinator.CHECKPOINT_ID_KEY)), instant);
    }
    newestOfCheckpoint.forEach((checkpoint, instant) -> {
      int prefix = positions.getOrDefault(checkpoint, chunks.size());
      assertThat(read(table, QuerySpec.asOf(instant.time())))
          .as("time travel to %s (checkpoint %d: chunks 0..%d)", instant, checkpoint, prefix)
          .isEqualTo(expected(chunks.subList(0, prefix)));
    });
    return newestOfCheckpoint.size();
  }
}
