package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.table.TableType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShowConfigCommandTest {
  @TempDir Path dir;

  @Test
  void printsTheTablePropertiesSortedByKey() {
    OrdersTable t = OrdersTable.create(dir, TableType.MERGE_ON_READ);

    AdminRun run = AdminRun.run("show-config", t.path());

    assertThat(run.status()).as(run.toString()).isZero();
    List<String> lines = run.lines();
    assertThat(lines.get(0).split("\\s+")).containsExactly("KEY", "VALUE");
    List<String> keys = new ArrayList<>();
    lines.subList(1, lines.size()).forEach(l -> keys.add(l.split("\\s+")[0]));
    assertThat(keys).isSorted().containsAll(t.table.config().properties().keySet());
    assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+")).containsExactly("hoodie.table.type", "MERGE_ON_READ"));
    assertThat(lines).anySatisfy(l -> assertThat(l.split("\\s+")).containsExactly("hoodie.table.version", "6"));
  }

  @Test
  void jsonIsOneObjectOfTheProperties() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);

    JsonNode json = AdminRun.run("show-config", t.path(), "--json").json();

    assertThat(json.get("hoodie.table.name").asText()).isEqualTo("orders");
    assertThat(json.get("hoodie.table.recordkey.fields").asText()).isEqualTo("id");
    assertThat(json.size()).isEqualTo(t.table.config().properties().size());
  }
}
