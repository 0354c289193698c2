package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.table.TableType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitsCommandTest {
  @TempDir Path dir;

  @Test
  void listsEachInstantWithWhatItsCommitWrote() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String first = t.upsertRound(1);
    String second = t.upsertRound(2);
    String pending = t.upsertRoundUncommitted(3);

    AdminRun run = AdminRun.run("commits", t.path());

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.err()).isEmpty();
    List<String> lines = run.lines();
    assertThat(lines.get(0)).startsWith("TIME").contains("ACTION", "STATE", "OPERATION", "FILES", "RECORDS_WRITTEN",
        "UPDATED", "DELETED", "BYTES_WRITTEN");
    assertThat(lines).hasSize(4);
    assertThat(lines.get(1).split("\\s+")).startsWith(first, "commit", "COMPLETED", "UPSERT", "2", "2", "6", "0", "0");
    // the second round rewrites both file groups: 6 records written, all of them updates
    assertThat(lines.get(2).split("\\s+")).startsWith(second, "commit", "COMPLETED", "UPSERT", "2", "2", "6", "6", "0");
    assertThat(lines.get(3).split("\\s+")).containsExactly(pending, "commit", "INFLIGHT", "-", "-", "-", "-", "-", "-",
        "-");
  }

  @Test
  void jsonHasOneObjectPerInstantWithTheMetadataCounts() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    String base = t.bulkInsert(1);
    String delta = t.upsertRound(2);

    JsonNode json = AdminRun.run("commits", t.path(), "--json").json();

    assertThat(json.size()).isEqualTo(2);
    JsonNode b = json.get(0);
    assertThat(b.get("time").asText()).isEqualTo(base);
    assertThat(b.get("action").asText()).isEqualTo("deltacommit");
    assertThat(b.get("operation").asText()).isEqualTo("BULK_INSERT");
    assertThat(b.get("files").asInt()).isEqualTo(2);
    assertThat(b.get("recordsWritten").asLong()).isEqualTo(6);
    assertThat(b.get("bytesWritten").asLong()).isPositive();
    assertThat(b.get("timeline").asText()).isEqualTo("active");
    JsonNode d = json.get(1);
    assertThat(d.get("time").asText()).isEqualTo(delta);
    assertThat(d.get("operation").asText()).isEqualTo("UPSERT");
    assertThat(d.get("files").asInt()).as("one log file per file group").isEqualTo(2);
  }

  @Test
  void archivedListsTheArchivedInstantsBeforeTheActiveOnes() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    List<String> writes = new ArrayList<>();
    for (int r = 1; r <= 5; r++) {
      writes.add(t.upsertRound(r));
    }
    assertThat(AdminRun.run("archive", t.path(), "--min-commits", "2", "--max-commits", "3").status()).isZero();

    AdminRun active = AdminRun.run("commits", t.path(), "--json");
    AdminRun all = AdminRun.run("commits", t.path(), "--archived", "--json");
    AdminRun text = AdminRun.run("commits", t.path(), "--archived");

    assertThat(times(active.json())).containsExactlyElementsOf(writes.subList(3, 5));
    assertThat(times(all.json())).containsExactlyElementsOf(writes);
    assertThat(all.json().get(0).get("timeline").asText()).isEqualTo("archived");
    assertThat(all.json().get(0).get("state").asText()).isEqualTo("COMPLETED");
    assertThat(all.json().get(4).get("timeline").asText()).isEqualTo("active");
    assertThat(text.lines().get(0)).startsWith("TIMELINE");
    assertThat(text.lines().get(1)).startsWith("archived  " + writes.get(0) + "  commit  COMPLETED");
  }

  private static List<String> times(JsonNode rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(r.get("time").asText()));
    return out;
  }
}
