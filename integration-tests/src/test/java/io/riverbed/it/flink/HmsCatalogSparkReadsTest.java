package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.hive.HiveSyncProcesses;
import io.riverbed.it.hive.SqlByNameMain;
import io.riverbed.it.oracle.Rows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code hudi} catalog in {@code hms} mode seen from Spark: a Flink SQL script ({@code riverbed-sql}
 * in a child JVM) creates a database and two tables (MERGE_ON_READ partitioned, COPY_ON_WRITE) through
 * the catalog on a Hive Metastore 3.1.3 (another child JVM) and writes them, with no {@code 'path'}
 * and no hive sync options in its DDL; then a Spark 3.5.1 session with Hive support on the same
 * metastore selects the tables by name, with Riverbed's reader and with Apache Hudi 0.15's bundle
 * (each in its own child JVM), and both return the rows Flink wrote, as Hudi reads the tables' paths.
 */
class HmsCatalogSparkReadsTest {
  static final String TRIPS = "ods.trips";
  static final String FARES = "ods.fares";

  @TempDir static Path dir;
  static HiveSyncProcesses.MetastoreWithClient hive;
  static HiveMetaStoreClient hms;

  @BeforeAll
  static void startMetastore() throws Exception {
    hive = HiveSyncProcesses.MetastoreWithClient.start(dir.resolve("metastore"));
    hms = hive.client;
  }

  @AfterAll
  static void stopMetastore() throws Exception {
    if (hive != null) {
      hive.close();
    }
  }

  @Test
  void sparkSelectsTheTablesFlinkWroteThroughTheCatalog() throws Exception {
    Path lake = dir.resolve("lake");
    Path script = Files.writeString(dir.resolve("catalog.sql"), """
        SET 'table.dml-sync' = 'true';
        CREATE CATALOG lake WITH ('type' = 'hudi', 'mode' = 'hms', 'catalog.path' = '%s',
          'hadoop.hive.metastore.uris' = '%s');
        USE CATALOG lake;
        CREATE DATABASE ods;
        CREATE TABLE ods.trips (
          id STRING, ts BIGINT, fare DOUBLE, city STRING, PRIMARY KEY (id) NOT ENFORCED
        ) PARTITIONED BY (city) WITH ('table.type' = 'MERGE_ON_READ', 'precombine.field' = 'ts');
        CREATE TABLE ods.fares (id INT, amount DECIMAL(10, 2), note STRING, PRIMARY KEY (id) NOT ENFORCED);
        INSERT INTO ods.trips VALUES ('a', 1, 10.5, 'paris'), ('b', 1, 7.25, 'rome'), ('c', 1, 3.0, 'rome');
        INSERT INTO ods.trips VALUES ('a', 2, 11.0, 'paris');
        INSERT INTO ods.fares VALUES (1, 12.50, 'first'), (2, 3.75, 'second');
        SELECT id, ts, fare, city FROM ods.trips;
        """.formatted(lake.toUri(), hive.metastore.uri));
    String flink = WriteJobProcess.runMain(dir.resolve("riverbed-sql"), Duration.ofMinutes(8), "io.riverbed.flink.sql.SqlScript",
        List.of("-f", script.toString()));
    assertThat(flink.lines().filter(l -> l.startsWith("+I[")).toList()).as(flink)
        .containsExactlyInAnyOrder("+I[a, 2, 11.0, paris]", "+I[b, 1, 7.25, rome]", "+I[c, 1, 3.0, rome]");

    assertThat(hms.getAllTables("ods")).contains("trips", "fares");
    assertThat(hms.getTable("ods", "trips").getPartitionKeys()).extracting(FieldSchema::getName).containsExactly("city");
    assertThat(hms.listPartitionNames("ods", "trips", (short) -1)).containsExactlyInAnyOrder("city=paris", "city=rome");

    String trips = lake.resolve("ods").resolve("trips").toUri().toString();
    String fares = lake.resolve("ods").resolve("fares").toUri().toString();
    List<SqlByNameMain.Read> reads = List.of(new SqlByNameMain.Read(TRIPS, trips, "snapshot"),
        new SqlByNameMain.Read(FARES, fares, "snapshot"));
    List<Rows> riverbed = SqlByNameMain.readWithRiverbed(hive.metastore.uri, dir.resolve("spark-riverbed"), reads);
    List<SqlByNameMain.Answer> hudi = SqlByNameMain.read(hive.metastore.uri, dir.resolve("spark-hudi"), reads);

    assertThat(riverbed.get(0).nodes().stream().map(n -> n.get("id").asText() + "," + n.get("ts").asText() + ","
        + n.get("fare").asText() + "," + n.get("city").asText()).toList()).as("Riverbed's Spark reading " + TRIPS)
        .containsExactlyInAnyOrder("a,2,11.0,paris", "b,1,7.25,rome", "c,1,3.0,rome");
    assertThat(riverbed.get(1).values("note")).containsExactly("first", "second");
    for (int i = 0; i < reads.size(); i++) {
      String table = reads.get(i).table();
      assertThat(hudi.get(i).byName().lines()).as(table + " by name in Hudi's Spark vs Hudi reading its path")
          .containsExactlyElementsOf(hudi.get(i).byPath().lines());
      assertThat(riverbed.get(i).lines()).as(table + " by name in Riverbed's Spark vs Hudi reading its path")
          .containsExactlyElementsOf(hudi.get(i).byPath().lines());
    }
  }
}
