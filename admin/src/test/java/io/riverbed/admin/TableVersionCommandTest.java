package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableVersionCommandTest {
  @TempDir Path dir;

  @Test
  void upgradeToEightThenDowngradeToSixKeepsTheRows() throws Exception {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);
    t.bulkInsert(1);
    t.upsertRound(2);
    Map<String, String> before = t.snapshot();

    AdminRun up = AdminRun.run("upgrade", t.path(), "--to", "8", "--json");

    assertThat(up.status()).as(up.toString()).isZero();
    JsonNode json = up.json();
    assertThat(json.get("fromVersion").asInt()).isEqualTo(6);
    assertThat(json.get("toVersion").asInt()).isEqualTo(8);
    assertThat(json.get("compactions").size()).isEqualTo(1);
    Path properties = dir.resolve("orders/.hoodie/hoodie.properties");
    assertThat(Files.readString(properties)).contains("hoodie.table.version=8", "hoodie.timeline.layout.version=2");
    assertThat(Table.open(OrdersTable.localFs(), new org.apache.hadoop.fs.Path(t.path())).refreshTimeline()
        .completed().instants()).hasSize(3);

    AdminRun again = AdminRun.run("upgrade", t.path(), "--to", "8");
    assertThat(again.lines()).containsExactly("Table " + t.path() + " has table version 8 already; nothing to change.");

    AdminRun wrongWay = AdminRun.run("upgrade", t.path(), "--to", "6");
    assertThat(wrongWay.status()).isEqualTo(1);
    assertThat(wrongWay.err()).contains(t.path()).contains("table version 8").contains("use downgrade");

    AdminRun down = AdminRun.run("downgrade", t.path(), "--to", "6");
    assertThat(down.status()).as(down.toString()).isZero();
    assertThat(down.lines()).singleElement().asString()
        .startsWith("Changed table " + t.path() + " from version 8 to 6: 0 failed writes rolled back");
    assertThat(Files.readString(properties)).contains("hoodie.table.version=6", "hoodie.timeline.layout.version=1");
    assertThat(t.snapshot()).isEqualTo(before);
  }
}
