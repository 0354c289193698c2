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

class SavepointCommandTest {
  @TempDir Path dir;

  @Test
  void aSavepointIsCreatedListedKeptByTheCleanerAndDeleted() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);
    String saved = t.upsertRound(2);
    TreeSet<String> pinned = new TreeSet<>(t.dataFiles().stream().filter(f -> f.contains(saved)).toList());
    t.upsertRound(3);
    t.upsertRound(4);

    AdminRun create = AdminRun.run("savepoint", "create", t.path(), "--instant", saved, "--user", "ops",
        "--comments", "before the backfill");

    assertThat(create.status()).as(create.toString()).isZero();
    assertThat(create.lines()).containsExactly("Savepoint " + saved + " created: 2 files pinned in 2 partitions.");
    assertThat(t.timeline().ofAction(Action.SAVEPOINT).completed().times()).containsExactly(saved);

    AdminRun list = AdminRun.run("savepoints", t.path());
    assertThat(list.status()).as(list.toString()).isZero();
    assertThat(list.lines().get(0).split("\\s+")).containsExactly("INSTANT", "STATE", "USER", "SAVEPOINTED_AT",
        "FILES", "PARTITIONS", "COMMENTS");
    assertThat(list.lines()).hasSize(2);
    assertThat(list.lines().get(1)).startsWith(saved + "  COMPLETED  ops  ").endsWith("  before the backfill");
    JsonNode row = AdminRun.run("savepoints", t.path(), "--json").json().get(0);
    assertThat(row.get("instant").asText()).isEqualTo(saved);
    assertThat(row.get("user").asText()).isEqualTo("ops");
    assertThat(row.get("files").asInt()).isEqualTo(2);
    assertThat(row.get("partitions").asInt()).isEqualTo(2);
    assertThat(row.get("comments").asText()).isEqualTo("before the backfill");
    assertThat(java.time.Instant.parse(row.get("savepointedAt").asText())).isBefore(java.time.Instant.now().plusSeconds(1));

    AdminRun.run("clean", t.path(), "--retain-commits", "1");
    assertThat(t.dataFiles()).as("the savepointed files stay").containsAll(pinned);

    AdminRun delete = AdminRun.run("savepoint", "delete", t.path(), "--instant", saved);
    assertThat(delete.status()).as(delete.toString()).isZero();
    assertThat(delete.lines()).containsExactly("Deleted savepoint " + saved + ".");
    assertThat(AdminRun.run("savepoints", t.path(), "--json").json().size()).isZero();
    AdminRun again = AdminRun.run("savepoint", "delete", t.path(), "--instant", saved);
    assertThat(again.status()).isEqualTo(1);
    assertThat(again.err().strip()).isEqualTo("riverbed-admin savepoint delete: table " + t.path()
        + " has no savepoint at " + saved + " ('savepoints' lists them)");
  }

  @Test
  void restoreTakesTheTableBackToTheSavepoint() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    t.bulkInsert(1);
    String saved = t.upsertRound(2);
    Map<String, String> atSavepoint = t.snapshot();
    AdminRun.run("savepoint", "create", t.path(), "--instant", saved);
    String third = t.upsertRound(3);
    String fourth = t.upsertRound(4);
    assertThat(t.snapshot()).isNotEqualTo(atSavepoint);

    AdminRun run = AdminRun.run("savepoint", "restore", t.path(), "--instant", saved, "--json");

    assertThat(run.status()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("savepoint").asText()).isEqualTo(saved);
    String restore = json.get("restore").asText();
    assertThat(t.timeline().ofAction(Action.RESTORE).completed().times()).containsExactly(restore);
    assertThat(json.get("rolledBack")).extracting(JsonNode::asText).containsExactly(fourth, third);
    assertThat(json.get("rollbackLogFiles").asInt()).as("a rollback block in each slice each one appended to")
        .isEqualTo(4);
    assertThat(t.timeline().writeTimeline().completed().last().orElseThrow().time()).isEqualTo(saved);
    assertThat(t.snapshot()).isEqualTo(atSavepoint);
  }

  @Test
  void restoreSaysWhatItRolledBack() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String saved = t.upsertRound(1);
    AdminRun.run("savepoint", "create", t.path(), "--instant", saved);
    String second = t.upsertRound(2);

    AdminRun run = AdminRun.run("savepoint", "restore", t.path(), "--instant", saved);

    assertThat(run.status()).as(run.toString()).isZero();
    String restore = t.timeline().ofAction(Action.RESTORE).completed().last().orElseThrow().time();
    assertThat(run.lines()).containsExactly("Restored table " + t.path() + " to savepoint " + saved + " with restore "
        + restore + ": 1 instants rolled back (" + second + " to " + second + "), 2 files deleted.");
  }

  @Test
  void refusalsAreOneLineAndABareGroupIsAUsageError() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String first = t.upsertRound(1);

    AdminRun notACommit = AdminRun.run("savepoint", "create", t.path(), "--instant", "20000101000000000");
    AdminRun twice = AdminRun.run("savepoint", "create", t.path(), "--instant", first);
    AdminRun twiceAgain = AdminRun.run("savepoint", "create", t.path(), "--instant", first);
    AdminRun noSavepoint = AdminRun.run("savepoint", "restore", t.path(), "--instant", "20000101000000000");
    AdminRun noInstant = AdminRun.run("savepoint", "create", t.path());
    AdminRun bare = AdminRun.run("savepoint");

    assertThat(notACommit.status()).isEqualTo(1);
    assertThat(notACommit.err().strip()).isEqualTo("riverbed-admin savepoint create: cannot savepoint 20000101000000000 "
        + "of table " + t.path() + ": it is not a commit, deltacommit or replacecommit of the active timeline");
    assertThat(twice.status()).isZero();
    assertThat(twiceAgain.status()).isEqualTo(1);
    assertThat(twiceAgain.err().strip()).endsWith(": it is savepointed already");
    assertThat(noSavepoint.status()).isEqualTo(1);
    assertThat(noSavepoint.err().strip()).startsWith("riverbed-admin savepoint restore: cannot restore table "
        + t.path() + " to savepoint 20000101000000000: it has no savepoint at that time");
    assertThat(noInstant.status()).isEqualTo(2);
    assertThat(noInstant.err()).startsWith("riverbed-admin savepoint create: Missing required option: '--instant=T'");
    assertThat(bare.status()).isEqualTo(2);
    assertThat(bare.err().strip()).isEqualTo("riverbed-admin savepoint: name a savepoint command: create, delete, "
        + "restore (riverbed-admin savepoint --help lists the options)");
  }
}
