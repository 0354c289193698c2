package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Instant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveCommandTest {
  @TempDir Path dir;

  private final List<String> writes = new ArrayList<>();

  private OrdersTable rounds(int n) {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= n; r++) {
      writes.add(t.upsertRound(r));
    }
    return t;
  }

  @Test
  void archivesTheOldestCommitsDownToMinCommits() {
    OrdersTable t = rounds(6);

    AdminRun run = AdminRun.run("archive", t.path(), "--min-commits", "2", "--max-commits", "4", "--json");

    assertThat(run.status()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("archiveFile").asText()).isEqualTo(".commits_.archive.1_1-0-1");
    assertThat(json.get("instants")).extracting(JsonNode::asText).containsExactlyElementsOf(writes.subList(0, 4));
    assertThat(json.get("stateFiles").asInt()).as("requested, inflight and completed file of each").isEqualTo(12);
    assertThat(json.get("backlog").asBoolean()).isFalse();
    assertThat(t.timeline().times()).containsExactlyElementsOf(writes.subList(4, 6));
    assertThat(ArchivedTimeline.load(t.table).timeline().instants()).extracting(Instant::time)
        .containsExactlyElementsOf(writes.subList(0, 4));
  }

  @Test
  void archivesATableVersion8IntoItsLsmHistory() throws Exception {
    OrdersTable t = rounds(6);
    assertThat(AdminRun.run("upgrade", t.path(), "--to", "8").status()).isZero();

    AdminRun run = AdminRun.run("archive", t.path(), "--min-commits", "2", "--max-commits", "4", "--json");

    assertThat(run.status()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("archiveFile").asText()).isEqualTo(writes.get(0) + "_" + writes.get(3) + "_0.parquet");
    assertThat(json.get("instants")).extracting(JsonNode::asText).containsExactlyElementsOf(writes.subList(0, 4));
    var v8 = io.riverbed.format.table.Table.open(t.table.fs(), t.table.basePath());
    assertThat(v8.archivePath().getName()).isEqualTo("history");
    assertThat(ArchivedTimeline.load(v8).timeline().instants()).extracting(Instant::time)
        .containsExactlyElementsOf(writes.subList(0, 4));
    assertThat(v8.refreshTimeline().completed().times()).containsExactlyElementsOf(writes.subList(4, 6));
  }

  @Test
  void textSaysWhatMovedAndWhenNothingIsDue() {
    OrdersTable t = rounds(4);

    AdminRun nothing = AdminRun.run("archive", t.path());
    AdminRun moved = AdminRun.run("archive", t.path(), "--option", "hoodie.keep.min.commits=1",
        "--option", "hoodie.keep.max.commits=3");

    assertThat(nothing.lines()).containsExactly("Nothing to archive (hoodie.keep.min.commits=20, "
        + "hoodie.keep.max.commits=30).");
    assertThat(moved.status()).as(moved.toString()).isZero();
    assertThat(moved.lines()).containsExactly("Archived 3 instants (" + writes.get(0) + " to " + writes.get(2)
        + "), 9 timeline files, into " + t.table.archivePath() + "/.commits_.archive.1_1-0-1.");
  }

  @Test
  void minCommitsNotBelowMaxCommitsIsAUsageError() {
    OrdersTable t = rounds(2);

    AdminRun run = AdminRun.run("archive", t.path(), "--min-commits", "5", "--max-commits", "5");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err().lines().toList()).containsExactly("riverbed-admin archive: archival needs 1 <= "
        + "hoodie.keep.min.commits < hoodie.keep.max.commits, hoodie.compact.inline.max.delta.commits >= 1, "
        + "riverbed.archive.max.instants.per.run >= 1 and hoodie.timeline.compaction.batch.size >= 2; got 5, 5, 5, 500, 10 "
        + "(riverbed-admin archive --help lists the options)");
    assertThat(t.timeline().size()).isEqualTo(2);
  }
}
