package io.riverbed.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.SavepointMetadata;
import io.riverbed.format.timeline.Timeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink writer on version 8 tables ({@link Version8Jobs}: two runs, failovers at named points,
 * async compaction on MERGE_ON_READ, a savepoint between the runs, cleaning): the snapshot equals the
 * last-writer-wins model, no write is left pending, the cleans keep every file the savepoint lists
 * (it is older than what they retain by count), and the files are in version 8's layout
 * (the timeline in {@code .hoodie/timeline/}, completed instants named
 * {@code <requested>_<completion>.<action>}, log files named by their delta commits).
 */
class Version8WriteJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir
  Path dir;

  @Test
  void mergeOnReadJobWithFailoversCompactionAndCleanEqualsTheModelInVersion8Layout() throws Exception {
    Path path = dir.resolve("mor");
    var written = Version8Jobs.write("v8-mor", path, "MERGE_ON_READ", 81);
    Table table = WriterFixtures.table(Version8Jobs.options(path, "MERGE_ON_READ"));
    assertThat(WriterFixtures.read(table)).isEqualTo(written.expected());
    assertSavepointedFilesKept(table, written.savepoint());
    WriterFixtures.assertNoPendingWrites(table);
    assertVersion8Layout(path);
    Timeline timeline = table.timelineStore().load();
    assertThat(timeline.ofAction(Action.COMMIT).completed().instants()).as("completed compactions").isNotEmpty();
    assertThat(Version8Jobs.completedCleans(table)).isNotEmpty();
    List<String> deltaCommits = timeline.ofAction(Action.DELTA_COMMIT).completed().times();
    try (Stream<Path> files = Files.walk(path)) {
      List<String> logInstants = files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".log."))
          .map(n -> n.substring(n.indexOf('_') + 1, n.indexOf(".log."))).toList();
      assertThat(logInstants).isNotEmpty();
      assertThat(deltaCommits).containsAll(logInstants);
    }
  }

  @Test
  void copyOnWriteJobWithFailoversAndCleanEqualsTheModelInVersion8Layout() throws Exception {
    Path path = dir.resolve("cow");
    var written = Version8Jobs.write("v8-cow", path, "COPY_ON_WRITE", 82);
    Table table = WriterFixtures.table(Version8Jobs.options(path, "COPY_ON_WRITE"));
    assertThat(WriterFixtures.read(table)).isEqualTo(written.expected());
    assertSavepointedFilesKept(table, written.savepoint());
    WriterFixtures.assertNoPendingWrites(table);
    assertVersion8Layout(path);
    assertThat(Version8Jobs.completedCleans(table)).isNotEmpty();
  }

  /** Every file the savepoint lists is still there after the second run's cleans. */
  private static void assertSavepointedFilesKept(Table table, String savepoint) throws Exception {
    var store = table.timelineStore();
    var instant = store.load().ofAction(Action.SAVEPOINT).completed().find(savepoint).orElseThrow();
    var metadata = SavepointMetadata.fromBytes(store.read(instant), store.pathOf(instant).toString());
    assertThat(metadata.dataFilesByPartition().values().stream().mapToInt(List::size).sum()).isPositive();
    metadata.dataFilesByPartition().forEach((partition, files) -> files.forEach(f -> {
      try {
        assertThat(table.fs().exists(new org.apache.hadoop.fs.Path(table.partitionPath(partition), f)))
            .as("savepointed file %s/%s", partition, f).isTrue();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }));
  }

  private static void assertVersion8Layout(Path table) throws Exception {
    assertThat(Files.readString(table.resolve(".hoodie/hoodie.properties")))
        .contains("hoodie.table.version=8", "hoodie.timeline.layout.version=2", "hoodie.timeline.path=timeline");
    try (Stream<Path> meta = Files.list(table.resolve(".hoodie"))) {
      assertThat(meta.map(p -> p.getFileName().toString())).noneMatch(n -> n.matches("\\d{17}.*"));
    }
    try (Stream<Path> timeline = Files.list(table.resolve(".hoodie/timeline"))) {
      List<String> names = timeline.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{17}.*")).toList();
      assertThat(names).anyMatch(n -> n.matches("\\d{17}_\\d{17}\\.(commit|deltacommit)"));
      assertThat(names).filteredOn(n -> !n.endsWith(".requested") && !n.endsWith(".inflight"))
          .allMatch(n -> n.matches("\\d{17}_\\d{17}\\.[a-z]+"));
    }
  }
}
