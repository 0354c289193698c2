package io.riverbed.format.query;

import static io.riverbed.format.testing.OrderWrites.order;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.AppendedLogFiles;
import io.riverbed.format.testing.OrderWrites;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SplitReader#readChanges}: what a streaming reader of an incremental range emits. Every
 * key the range wrote comes out once with its latest record of the range, every key it deleted as
 * a deletion (a delete block, on a key from the base file or from earlier logs alike), and keys
 * the range did not touch not at all, even when blocks before the range deleted or changed them.
 */
class RangeChangesTest {
  @TempDir
  Path dir;

  private OrderWrites orders;
  private Table table;

  @BeforeEach
  void createTable() {
    orders = OrderWrites.create(dir, TableType.MERGE_ON_READ);
    table = orders.table();
  }

  @Test
  void eachRangeYieldsItsOwnUpsertsAndDeletes() {
    String first = orders.upsert(order("k0", "first", 1), order("k1", "first", 1), order("k2", "first", 1));
    String second = orders.upsert(order("k2", "second", 2), order("k3", "second", 2));
    String third = orders.delete("k0", "k3");
    String fourth = orders.upsert(order("k1", "fourth", 4));

    assertThat(changes("000", first)).containsExactlyInAnyOrder("+k0=first", "+k1=first", "+k2=first");
    assertThat(changes(first, second)).containsExactlyInAnyOrder("+k2=second", "+k3=second");
    assertThat(changes(second, third)).containsExactlyInAnyOrder("-k0", "-k3");
    assertThat(changes(third, fourth)).as("the deletes before the range are not changes of it")
        .containsExactly("+k1=fourth");
    assertThat(changes(first, fourth)).as("a range of several commits yields each key's net change")
        .containsExactlyInAnyOrder("+k1=fourth", "+k2=second", "-k0", "-k3");
  }

  @Test
  void logBlocksJoinedIntoOneFileStillYieldOnlyTheRangesBlocks() {
    String first = orders.upsert(order("k0", "first", 1), order("k1", "first", 1));
    String second = orders.delete("k1");
    String third = orders.upsert(order("k0", "third", 3));
    AppendedLogFiles.join(table.fs(), table.basePath());

    assertThat(changes(first, second)).containsExactly("-k1");
    assertThat(changes(second, third)).containsExactly("+k0=third");
  }

  @Test
  void aDeleteTheCompactionDroppedIsStillAChangeOfARangeSpanningIt() {
    String first = orders.upsert(order("k0", "first", 1), order("k1", "first", 1));
    orders.delete("k0");
    String compaction = CompactionScheduler.of(table.reload()).options(CompactionOptions.defaults().withThresholds(1, 0))
        .execute().instantTime().orElseThrow();
    CompactionRunner.of(table.reload(), compaction).execute();
    String fourth = orders.upsert(order("k1", "fourth", 4));

    assertThat(changes(first, fourth)).containsExactly("-k0", "+k1=fourth");
  }

  @Test
  void compactionCommitYieldsNothingAndLaterChangesStillCome() {
    String first = orders.upsert(order("k0", "first", 1), order("k1", "first", 1));
    orders.upsert(order("k1", "second", 2));
    String compaction = CompactionScheduler.of(table.reload()).options(CompactionOptions.defaults().withThresholds(1, 0))
        .execute().instantTime().orElseThrow();
    CompactionRunner.of(table.reload(), compaction).execute();
    String fourth = orders.delete("k0");

    String beforeCompaction = table.reload().refreshTimeline().instants().stream()
        .map(io.riverbed.format.timeline.Instant::time).filter(t -> t.compareTo(compaction) < 0)
        .reduce((a, b) -> b).orElseThrow();
    assertThat(changes(beforeCompaction, compaction)).as("compaction rewrites, it does not change").isEmpty();
    assertThat(changes(compaction, fourth)).containsExactly("-k0");
    assertThat(changes("000", fourth)).as("each slice the writes wrote, oldest first; not the compaction's")
        .containsExactly("+k0=first", "+k1=second", "-k0");
    assertThat(first).isLessThan(compaction);
  }

  /** The range's changes as "+key=name" and "-key", through the planner's incremental splits. */
  private List<String> changes(String beginExclusive, String endInclusive) {
    Table t = table.reload();
    QueryPlan plan = QueryPlanner.planChanges(t, beginExclusive, Optional.of(endInclusive));
    List<String> out = new ArrayList<>();
    if (plan.splits().isEmpty()) {
      return out;
    }
    SplitReader reader = SplitReader.of(plan, ReadSettings.defaults());
    for (Split split : plan.splits()) {
      try (CloseableIterator<RowChange> it = reader.readChanges(split, Optional.empty())) {
        it.forEachRemaining(c -> {
          if (c instanceof RowChange.Upserted u) {
            out.add("+" + u.record().get(MetaFields.RECORD_KEY) + "=" + u.record().get("name"));
          } else {
            RowChange.Deleted d = (RowChange.Deleted) c;
            assertThat(d.partitionPath()).isEqualTo(split.slice().partitionPath());
            out.add("-" + d.recordKey());
          }
        });
      }
    }
    return out;
  }
}
