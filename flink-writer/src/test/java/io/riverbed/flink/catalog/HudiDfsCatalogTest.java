package io.riverbed.flink.catalog;

import static io.riverbed.flink.catalog.CatalogSessions.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code hudi} catalog in {@code dfs} mode: databases and tables created, written and read by
 * name, a later session sees them with no DDL, options altered, a column added (earlier rows read
 * null in it), tables and databases dropped; and
 * what it does not do is refused naming the reason.
 */
class HudiDfsCatalogTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @TempDir static Path root;

  private static TableEnvironment session() {
    return CatalogSessions.withCatalog("'type' = 'hudi', 'catalog.path' = '" + root.resolve("lake").toUri() + "'");
  }

  @Test
  void tablesAreCreatedWrittenReadAlteredAndDroppedByName() throws Exception {
    TableEnvironment first = session();
    assertThat(rows(first, "SHOW DATABASES")).containsExactly("+I[default]");
    first.executeSql("CREATE DATABASE ods");
    first.executeSql(CatalogSessions.TRIPS_DDL);
    Path tableDir = root.resolve("lake").resolve("ods").resolve("trips");
    assertThat(tableDir.resolve(".hoodie/hoodie.properties")).exists();
    assertThat(Files.readString(tableDir.resolve(".hoodie/.aux/table_option.properties")))
        .contains("pk.columns=id", "partition.columns=city", "table.type=MERGE_ON_READ");
    first.executeSql("INSERT INTO ods.trips VALUES ('a', 1, 10.50, 'paris'), ('b', 1, 7.25, 'rome')").await();
    first.executeSql("INSERT INTO ods.trips VALUES ('a', 2, 11.00, 'paris')").await();

    TableEnvironment later = session();
    assertThat(rows(later, "SHOW TABLES IN ods")).containsExactly("+I[trips]");
    assertThat(rows(later, "SELECT id, ts, fare, city FROM ods.trips"))
        .containsExactlyInAnyOrder("+I[a, 2, 11.00, paris]", "+I[b, 1, 7.25, rome]");
    var table = later.getCatalog("lake").orElseThrow().getTable(new org.apache.flink.table.catalog.ObjectPath("ods", "trips"));
    assertThat(table.getComment()).isEqualTo("trips by id");
    assertThat(table.getUnresolvedSchema().getPrimaryKey()).hasValueSatisfying(k -> assertThat(k.getColumnNames()).containsExactly("id"));
    assertThat(((org.apache.flink.table.catalog.CatalogTable) table).getPartitionKeys()).containsExactly("city");
    assertThat(table.getOptions()).containsEntry("connector", "hudi").containsEntry("table.type", "MERGE_ON_READ")
        .containsEntry("path", "file:" + tableDir);

    later.executeSql("ALTER TABLE ods.trips SET ('compaction.delta_commits' = '2')");
    assertThat(session().getCatalog("lake").orElseThrow().getTable(new org.apache.flink.table.catalog.ObjectPath("ods", "trips"))
        .getOptions()).containsEntry("compaction.delta_commits", "2").containsEntry("precombine.field", "ts");
    later.executeSql("ALTER TABLE ods.trips ADD note STRING");
    TableEnvironment evolved = session();
    evolved.executeSql("INSERT INTO ods.trips VALUES ('c', 1, 3.00, 'rome', 'new')").await();
    assertThat(rows(evolved, "SELECT id, fare, note FROM ods.trips"))
        .containsExactlyInAnyOrder("+I[a, 11.00, null]", "+I[b, 7.25, null]", "+I[c, 3.00, new]");
    assertThatThrownBy(() -> evolved.executeSql("ALTER TABLE ods.trips DROP fare"))
        .hasStackTraceContaining("other changes of its columns, primary key or partitions are not available");
    assertThatThrownBy(() -> evolved.executeSql("ALTER TABLE ods.trips ADD flag BOOLEAN NOT NULL"))
        .hasStackTraceContaining("only nullable physical columns can be added");

    assertThatThrownBy(() -> evolved.executeSql("DROP DATABASE ods")).hasStackTraceContaining("is not empty");
    later.executeSql("DROP TABLE ods.trips");
    assertThat(tableDir).doesNotExist();
    later.executeSql("DROP DATABASE ods");
    assertThat(rows(later, "SHOW DATABASES")).containsExactly("+I[default]");
  }

  @Test
  void whatTheCatalogDoesNotDoIsRefusedNamingWhy() {
    TableEnvironment tEnv = session();
    assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE t (id STRING) WITH ('connector' = 'datagen')"))
        .hasStackTraceContaining("holds 'connector' = 'hudi' tables only, got 'datagen'");
    assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE t (id STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('path' = '/elsewhere')"))
        .hasStackTraceContaining("drop the 'path' option");
    assertThatThrownBy(() -> tEnv.executeSql("CREATE TABLE t (name STRING) WITH ('hoodie.datasource.write.recordkey.field' = 'id')"))
        .hasStackTraceContaining("record key field 'id' is not a column [name]");
    assertThat(root.resolve("lake").resolve("default").resolve("t")).doesNotExist();
    assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'hudi', 'mode' = 'dfs', 'catalog.path' = '/x', "
        + "'hive.conf.dir' = '/conf')")).hasStackTraceContaining("'hive.conf.dir' applies to mode 'hms', not 'dfs'");
    assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG h WITH ('type' = 'hudi')"))
        .hasStackTraceContaining("'catalog.path' (the catalog's root folder) is required");
  }
}
