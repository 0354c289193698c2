package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollbackCommandTest {
  @TempDir Path dir;

  @Test
  void aPendingWriteIsRolledBackAndItsFilesDeleted() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    TreeSet<String> committed = t.dataFiles();
    String failed = t.upsertRoundUncommitted(2);
    assertThat(t.dataFiles()).hasSize(4);

    AdminRun run = AdminRun.run("rollback", t.path(), "--instant", failed);

    assertThat(run.status()).as(run.toString()).isZero();
    String r = t.timeline().ofAction(Action.ROLLBACK).completed().last().orElseThrow().time();
    assertThat(run.lines()).containsExactly("Rolled back commit " + failed + " (INFLIGHT) with rollback " + r
        + ": 2 files deleted.");
    assertThat(t.timeline().containsTime(failed)).isFalse();
    assertThat(t.dataFiles()).isEqualTo(committed);
  }

  @Test
  void theLatestCompletedWriteIsRolledBackAndTheTableReadsAsBeforeIt() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    t.bulkInsert(1);
    Map<String, String> before = t.snapshot();
    String latest = t.upsertRound(2);
    assertThat(t.snapshot()).isNotEqualTo(before);

    AdminRun run = AdminRun.run("rollback", t.path(), "--instant", latest, "--json");

    assertThat(run.status()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("rolledBack").asText()).isEqualTo(latest);
    assertThat(json.get("action").asText()).isEqualTo("deltacommit");
    assertThat(json.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(json.get("rollbackLogFiles").asInt()).as("a rollback block in each slice it appended to").isEqualTo(2);
    assertThat(t.timeline().containsTime(latest)).isFalse();
    assertThat(t.timeline().ofAction(Action.ROLLBACK).completed().size()).isEqualTo(1);
    assertThat(t.snapshot()).isEqualTo(before);
  }

  @Test
  void aCompletedWriteThatIsNotTheLatestIsRefusedAsHudiRefusesIt() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String first = t.upsertRound(1);
    String second = t.upsertRound(2);
    String third = t.upsertRound(3);

    AdminRun run = AdminRun.run("rollback", t.path(), "--instant", first);

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().lines().toList()).containsExactly("riverbed-admin rollback: cannot roll back instant " + first
        + " of table " + t.path() + ": completed commits come after it (" + second + ", " + third
        + "); roll those back first, newest first");
    assertThat(t.timeline().size()).isEqualTo(3);
  }

  @Test
  void aWriteFollowedByAPendingWriteIsRefused() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String done = t.upsertRound(1);
    String pending = t.upsertRoundUncommitted(2);

    AdminRun run = AdminRun.run("rollback", t.path(), "--instant", done);

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().strip()).endsWith(": pending writes come after it (" + pending
        + "); roll those back first, newest first");
  }

  @Test
  void anInstantNotOnTheTimelineOrNotAWriteIsRefused() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= 3; r++) {
      t.upsertRound(r);
    }
    AdminRun.run("clean", t.path(), "--retain-commits", "1");
    String clean = t.timeline().ofAction(Action.CLEAN).last().orElseThrow().time();

    AdminRun missing = AdminRun.run("rollback", t.path(), "--instant", "20000101000000000");
    AdminRun notAWrite = AdminRun.run("rollback", t.path(), "--instant", clean);
    AdminRun noInstant = AdminRun.run("rollback", t.path());

    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err().strip()).isEqualTo("riverbed-admin rollback: no instant 20000101000000000 on the active "
        + "timeline of table " + t.path());
    assertThat(notAWrite.status()).isEqualTo(1);
    assertThat(notAWrite.err().strip()).isEqualTo("riverbed-admin rollback: instant " + clean + " of table " + t.path()
        + " is a clean; only commit, deltacommit and replacecommit instants can be rolled back");
    assertThat(noInstant.status()).isEqualTo(2);
    assertThat(noInstant.err()).startsWith("riverbed-admin rollback: Missing required option: '--instant=T'");
  }

  @Test
  void compactionsAreNotRolledBack() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    t.bulkInsert(1);
    t.upsertRound(2);
    AdminRun.run("compact", t.path(), "--schedule-only");
    String pending = t.timeline().pendingCompactions().last().orElseThrow().time();

    AdminRun refused = AdminRun.run("rollback", t.path(), "--instant", pending);
    AdminRun.run("compact", t.path());
    AdminRun completed = AdminRun.run("rollback", t.path(), "--instant", pending);

    assertThat(refused.status()).isEqualTo(1);
    assertThat(refused.err().strip()).isEqualTo("riverbed-admin rollback: instant " + pending + " of table " + t.path()
        + " is a pending compaction; running the compaction finishes it (rollback takes commits, "
        + "deltacommits and replacecommits)");
    assertThat(completed.status()).isEqualTo(1);
    assertThat(completed.err().strip()).endsWith(" is a completed compaction; Riverbed does not roll back compactions");
    assertThat(t.timeline().containsTime(pending)).isTrue();
  }
}
