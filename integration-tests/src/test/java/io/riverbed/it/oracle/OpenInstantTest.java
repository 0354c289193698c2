package io.riverbed.it.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.ScenarioWriter;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.TripGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Hudi 0.15's reader does with an instant that is requested + inflight but never completed,
 * as a Flink writer leaves one open between checkpoints (files as Flink writes them: empty
 * {@code T.deltacommit.requested} and {@code T.deltacommit.inflight}). The same was seen on a
 * COW table ({@code T.commit.requested}, {@code T.inflight}).
 */
class OpenInstantTest {

  private static final String LATER = "99991231000000000";

  @Test
  void trailingOpenInstantIsInvisibleButBlocksTimeTravelAtOrAfterIt(@TempDir Path dir) throws IOException {
    ScenarioTable t = twoCommits(dir.resolve("trailing"));
    String c1 = t.commits().get(0).time();
    String c2 = t.latest().time();
    String open = String.valueOf(Long.parseLong(c2) + 1_000);
    openDeltaCommit(t.path(), open);

    SparkOracle.snapshot(t.path()).withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), "snapshot");
    SparkOracle.asOf(t.path(), c2).withoutPhysicalMetaColumns().assertSameAs(t.expectedAsOf(c2), "as of " + c2);
    SparkOracle.incremental(t.path(), c1, LATER).withoutPhysicalMetaColumns()
        .assertSameAs(t.expectedIncremental(c1, c2), "incremental after " + c1);
    for (String q : List.of(open, LATER)) {
      assertThatThrownBy(() -> SparkOracle.asOf(t.path(), q))
          .hasMessageContaining("must be earlier than the first incomplete commit timestamp '" + open + "'");
    }
  }

  @Test
  void openInstantBeforeACompletedOneFailsEveryIncrementalQuery(@TempDir Path dir) throws IOException {
    ScenarioTable t = twoCommits(dir.resolve("hole"));
    String c1 = t.commits().get(0).time();
    String c2 = t.latest().time();
    String hole = String.valueOf(Long.parseLong(c1) + 1);
    openDeltaCommit(t.path(), hole);

    SparkOracle.snapshot(t.path()).withoutPhysicalMetaColumns().assertSameAs(t.expectedSnapshot(), "snapshot");
    SparkOracle.asOf(t.path(), c1).withoutPhysicalMetaColumns().assertSameAs(t.expectedAsOf(c1), "as of " + c1);
    assertThatThrownBy(() -> SparkOracle.asOf(t.path(), c2))
        .hasMessageContaining("must be earlier than the first incomplete commit timestamp '" + hole + "'");
    // Even a range that ends before the hole fails (default hoodie.read.timeline.holes.resolution.policy=FAIL).
    for (Query q : List.of(Query.incremental("000"), Query.incremental(c1), Query.incremental("000", c1))) {
      assertThatThrownBy(() -> SparkOracle.read(t.path(), q)).as(q.toString())
          .hasMessageContaining("Found hollow commit: '" + hole + "'");
    }
  }

  private static ScenarioTable twoCommits(Path path) {
    var spec = new TableSpec(path.getFileName().toString(), TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false,
        Map.of("hoodie.metadata.enable", "false"));
    var gen = new TripGenerator(5L);
    var writer = new ScenarioWriter(path, spec);
    var trips = gen.newTrips(10, 1_000, 100);
    writer.insert(trips);
    writer.upsert(List.of(gen.update(trips.get(0), 5_000), gen.update(trips.get(1), 5_000)));
    ScenarioTable t = writer.finish();
    assertThat(t.commits()).hasSize(2);
    return t;
  }

  private static void openDeltaCommit(Path table, String instant) throws IOException {
    Files.createFile(table.resolve(".hoodie/" + instant + ".deltacommit.requested"));
    Files.createFile(table.resolve(".hoodie/" + instant + ".deltacommit.inflight"));
  }
}
