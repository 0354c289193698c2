package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.table.TableType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSlicesCommandTest {
  @TempDir Path dir;

  @Test
  void showsTheLatestSliceOfEachFileGroupWithItsBaseFileAndLogs() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    String base = t.bulkInsert(1);
    t.upsertRound(2);
    t.upsertRound(3);
    t.upsertRoundUncommitted(4);

    JsonNode json = AdminRun.run("file-slices", t.path(), "--json").json();

    assertThat(json.size()).isEqualTo(2);
    for (JsonNode slice : json) {
      assertThat(slice.get("partition").asText()).isIn(OrdersTable.DAYS);
      assertThat(slice.get("baseInstant").asText()).isEqualTo(base);
      assertThat(slice.get("baseFile").asText()).startsWith(slice.get("fileId").asText()).endsWith(base + ".parquet");
      assertThat(slice.get("baseFileBytes").asLong()).isPositive();
      // the pending round's log file is listed too, as Hudi's file system view lists it: log file names
      // carry the slice, not the writer's instant, and readers skip the blocks of uncommitted instants
      assertThat(slice.get("logFiles").asInt()).isEqualTo(3);
      assertThat(slice.get("logFilesBytes").asLong()).isPositive();
    }

    AdminRun text = AdminRun.run("file-slices", t.path());
    assertThat(text.lines().get(0).split("\\s+")).containsExactly("PARTITION", "FILE_ID", "BASE_INSTANT", "BASE_FILE",
        "BASE_BYTES", "LOG_FILES", "LOG_BYTES");
    assertThat(text.lines()).hasSize(3);
    assertThat(text.lines().get(1).split("\\s+")[5]).isEqualTo("3");
  }

  @Test
  void partitionLimitsTheSlicesToOnePartition() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);

    AdminRun run = AdminRun.run("file-slices", t.path(), "--partition", "2024-01-02", "--json");

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.json().size()).isEqualTo(1);
    assertThat(run.json().get(0).get("partition").asText()).isEqualTo("2024-01-02");
    assertThat(run.json().get(0).get("logFiles").asInt()).isZero();
  }

  @Test
  void aPartitionTheTableDoesNotHaveIsAnError() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    t.upsertRound(1);

    AdminRun run = AdminRun.run("file-slices", t.path(), "--partition", "2030-01-01");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList()).containsExactly("riverbed-admin file-slices: table " + t.path()
        + " has no partition '2030-01-01': no folder " + t.path() + "/2030-01-01");
  }

  @Test
  void aTableWithoutCommitsHasNoSlices() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);

    AdminRun run = AdminRun.run("file-slices", t.path(), "--json");

    assertThat(run.status()).isZero();
    assertThat(run.json().isArray()).isTrue();
    assertThat(run.json().size()).isZero();
    assertThat(List.of(AdminRun.run("file-slices", t.path()).lines().size())).containsExactly(1);
  }
}
