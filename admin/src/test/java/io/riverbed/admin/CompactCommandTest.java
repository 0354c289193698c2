package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactCommandTest {
  @TempDir Path dir;

  private OrdersTable tableWithLogs() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    t.bulkInsert(1);
    t.upsertRound(2);
    t.upsertRound(3);
    return t;
  }

  @Test
  void compactSchedulesAndRunsACompactionAndTheRowsReadTheSame() {
    OrdersTable t = tableWithLogs();
    Map<String, String> before = t.snapshot();

    AdminRun run = AdminRun.run("compact", t.path(), "--json");

    assertThat(run.status()).as(run.toString()).isZero();
    JsonNode json = run.json();
    String c = json.get("scheduled").asText();
    assertThat(json.get("fileGroupsPlanned").asInt()).isEqualTo(2);
    assertThat(json.get("reason").isNull()).isTrue();
    assertThat(json.get("compactions").size()).isEqualTo(1);
    JsonNode done = json.get("compactions").get(0);
    assertThat(done.get("instant").asText()).isEqualTo(c);
    assertThat(done.get("baseFilesWritten").asInt()).isEqualTo(2);
    assertThat(done.get("recordsWritten").asLong()).isEqualTo(6);
    assertThat(t.timeline().find(c)).contains(Instant.completed(c, Action.COMPACTION));
    assertThat(t.snapshot()).isEqualTo(before).containsEntry("k0", "r3@3");

    JsonNode slices = AdminRun.run("file-slices", t.path(), "--json").json();
    slices.forEach(s -> {
      assertThat(s.get("baseInstant").asText()).isEqualTo(c);
      assertThat(s.get("logFiles").asInt()).isZero();
    });
  }

  @Test
  void scheduleOnlyWritesThePlanWhichCompactionsListsAndCompactThenRuns() {
    OrdersTable t = tableWithLogs();

    AdminRun scheduled = AdminRun.run("compact", t.path(), "--schedule-only");

    assertThat(scheduled.status()).as(scheduled.toString()).isZero();
    String c = t.timeline().pendingCompactions().last().orElseThrow().time();
    assertThat(scheduled.lines()).containsExactly("Scheduled compaction " + c + ": 2 file groups planned.");
    AdminRun pending = AdminRun.run("compactions", t.path());
    assertThat(pending.lines()).hasSize(2);
    assertThat(pending.lines().get(0).split("\\s+")).containsExactly("INSTANT", "STATE", "FILE_GROUPS", "LOG_FILES",
        "BASE_FILES_WRITTEN", "RECORDS_WRITTEN");
    assertThat(pending.lines().get(1).split("\\s+")).containsExactly(c, "REQUESTED", "2", "4", "-", "-");

    AdminRun ran = AdminRun.run("compact", t.path(), "--instant", c);

    assertThat(ran.status()).as(ran.toString()).isZero();
    assertThat(ran.lines().get(0).split("\\s+")).containsExactly("COMPACTION", "BASE_FILES_WRITTEN", "RECORDS_WRITTEN",
        "BYTES_WRITTEN");
    assertThat(ran.lines().get(1).split("\\s+")).startsWith(c, "2", "6");
    JsonNode completed = AdminRun.run("compactions", t.path(), "--json").json();
    assertThat(completed.size()).isEqualTo(1);
    assertThat(completed.get(0).get("state").asText()).isEqualTo("COMPLETED");
    assertThat(completed.get(0).get("baseFilesWritten").asInt()).isEqualTo(2);
    assertThat(completed.get(0).get("recordsWritten").asLong()).isEqualTo(6);
  }

  @Test
  void compactWithoutAnInstantRunsThePendingCompactionInsteadOfSchedulingAnother() {
    OrdersTable t = tableWithLogs();
    AdminRun.run("compact", t.path(), "--schedule-only");
    String c = t.timeline().pendingCompactions().last().orElseThrow().time();

    JsonNode json = AdminRun.run("compact", t.path(), "--json").json();

    assertThat(json.get("scheduled").isNull()).isTrue();
    assertThat(json.get("compactions").get(0).get("instant").asText()).isEqualTo(c);
    assertThat(t.timeline().pendingCompactions().isEmpty()).isTrue();
  }

  @Test
  void thresholdsGoToTheSchedulerAndNothingQualifyingIsNoError() {
    OrdersTable t = tableWithLogs();

    AdminRun run = AdminRun.run("compact", t.path(), "--option", "hoodie.compaction.logfile.num.threshold=3");

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.lines()).hasSize(1);
    assertThat(run.lines().get(0)).startsWith("No compaction scheduled: no file group with log files qualifies")
        .contains("3 log files");
    assertThat(t.timeline().pendingCompactions().isEmpty()).isTrue();
  }

  @Test
  void anInstantThatIsNoCompactionOrIsCompletedIsAnError() {
    OrdersTable t = tableWithLogs();
    String c = AdminRun.run("compact", t.path(), "--json").json().get("scheduled").asText();

    AdminRun missing = AdminRun.run("compact", t.path(), "--instant", "20000101000000000");
    AdminRun again = AdminRun.run("compact", t.path(), "--instant", c);

    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err().strip()).isEqualTo("riverbed-admin compact: table " + t.path()
        + " has no compaction at 20000101000000000 ('compactions' lists them)");
    assertThat(again.status()).isEqualTo(1);
    assertThat(again.err().strip()).isEqualTo("riverbed-admin compact: compaction " + c + " of table " + t.path()
        + " is already completed");
  }

  @Test
  void copyOnWriteTablesHaveNothingToCompact() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);

    AdminRun run = AdminRun.run("compact", t.path());

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("riverbed-admin compact: cannot compact table " + t.path()
        + ": it is COPY_ON_WRITE, compaction needs MERGE_ON_READ");
  }

  @Test
  void anUnknownOrMalformedOptionIsAUsageErrorNamingIt() {
    OrdersTable t = tableWithLogs();

    AdminRun unknown = AdminRun.run("compact", t.path(), "--option", "hoodie.compaction.strategy=x");
    AdminRun notANumber = AdminRun.run("compact", t.path(), "--option", "hoodie.compaction.logfile.num.threshold=many");
    AdminRun notKeyValue = AdminRun.run("compact", t.path(), "--option", "threshold");

    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err().lines().toList()).hasSize(1);
    assertThat(unknown.err()).startsWith("riverbed-admin compact: unknown option 'hoodie.compaction.strategy' for compact;"
        + " it reads hoodie.bloom.index.filter.dynamic.max.entries, ");
    assertThat(notANumber.status()).isEqualTo(2);
    assertThat(notANumber.err().strip()).isEqualTo("riverbed-admin compact: --option "
        + "hoodie.compaction.logfile.num.threshold=many: not a number (riverbed-admin compact --help lists the options)");
    assertThat(notKeyValue.status()).isEqualTo(2);
    assertThat(notKeyValue.err()).startsWith("riverbed-admin compact: --option 'threshold' is not KEY=VALUE");
    assertThat(t.timeline().pendingCompactions().isEmpty()).isTrue();
  }
}
