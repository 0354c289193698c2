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

class CleanCommandTest {
  @TempDir Path dir;

  /** Four rounds on COPY_ON_WRITE: each file group has four slices, one per commit. */
  private OrdersTable fourRounds() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    for (int r = 1; r <= 4; r++) {
      t.upsertRound(r);
    }
    return t;
  }

  @Test
  void retainCommitsDeletesTheSlicesNoRetainedQueryReadsAndWritesACleanInstant() {
    OrdersTable t = fourRounds();
    TreeSet<String> before = t.dataFiles();
    Map<String, String> snapshot = t.snapshot();

    AdminRun run = AdminRun.run("clean", t.path(), "--retain-commits", "1");

    assertThat(run.status()).as(run.toString()).isZero();
    String clean = t.timeline().ofAction(Action.CLEAN).completed().last().orElseThrow().time();
    // KEEP_LATEST_COMMITS keeps what a query as of the last retained commit reads, plus the slice
    // before the earliest retained commit: two of four slices per file group go
    assertThat(before).hasSize(8);
    assertThat(t.dataFiles()).hasSize(4);
    assertThat(before).containsAll(t.dataFiles());
    assertThat(t.snapshot()).isEqualTo(snapshot);
    assertThat(run.lines().get(0).split("\\s+")).containsExactly("CLEAN", "FILES_DELETED", "PARTITIONS",
        "EARLIEST_RETAINED");
    assertThat(run.lines().get(1).split("\\s+")).startsWith(clean, "4", "2");
  }

  @Test
  void asecondCleanFindsNothingToDo() {
    OrdersTable t = fourRounds();
    AdminRun.run("clean", t.path(), "--retain-commits", "1");

    AdminRun again = AdminRun.run("clean", t.path(), "--retain-commits", "1");
    AdminRun json = AdminRun.run("clean", t.path(), "--retain-commits", "1", "--json");

    assertThat(again.status()).isZero();
    assertThat(again.lines()).containsExactly("Nothing to clean under KEEP_LATEST_COMMITS "
        + "(hoodie.cleaner.commits.retained=1).");
    assertThat(json.json().get("policy").asText()).isEqualTo("KEEP_LATEST_COMMITS");
    assertThat(json.json().get("cleans").size()).isZero();
    assertThat(t.timeline().ofAction(Action.CLEAN).size()).isEqualTo(1);
  }

  @Test
  void hudiCleanOptionsGoThroughOption() {
    OrdersTable t = fourRounds();

    JsonNode json = AdminRun.run("clean", t.path(), "--json", "--policy", "keep_latest_file_versions",
        "--option", "hoodie.cleaner.fileversions.retained=1").json();

    assertThat(json.get("policy").asText()).isEqualTo("KEEP_LATEST_FILE_VERSIONS");
    assertThat(json.get("cleans").get(0).get("filesDeleted").asInt()).isEqualTo(6);
    assertThat(t.dataFiles()).hasSize(2);
  }

  @Test
  void aBadPolicyOrRetentionIsAUsageErrorNamingIt() {
    OrdersTable t = fourRounds();

    AdminRun policy = AdminRun.run("clean", t.path(), "--policy", "KEEP_NOTHING");
    AdminRun zero = AdminRun.run("clean", t.path(), "--retain-commits", "0");
    AdminRun word = AdminRun.run("clean", t.path(), "--retain-commits", "ten");
    AdminRun flinkName = AdminRun.run("clean", t.path(), "--option", "clean.retain_commits=2");

    assertThat(policy.status()).isEqualTo(2);
    assertThat(policy.err()).startsWith("riverbed-admin clean: unknown cleaning policy 'KEEP_NOTHING'; use one of ");
    assertThat(zero.status()).isEqualTo(2);
    assertThat(zero.err()).contains("hoodie.cleaner.commits.retained >= 1");
    assertThat(word.status()).isEqualTo(2);
    assertThat(word.err()).startsWith("riverbed-admin clean: Invalid value for option '--retain-commits': 'ten' is not");
    assertThat(flinkName.status()).isEqualTo(2);
    assertThat(flinkName.err()).startsWith("riverbed-admin clean: unknown option 'clean.retain_commits' for clean; "
        + "it reads hoodie.clean.max.commits, hoodie.cleaner.commits.retained, ");
    for (AdminRun run : new AdminRun[] {policy, zero, word, flinkName}) {
      assertThat(run.err().lines().toList()).hasSize(1);
      assertThat(run.out()).isEmpty();
    }
    assertThat(t.dataFiles()).hasSize(8);
  }
}
