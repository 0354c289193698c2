package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.spark.RiverbedSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every Flink SQL type a {@code hudi} table stores, written by Flink SQL ({@code riverbed-sql} in a
 * child JVM), read back by Flink SQL unchanged, and read by Apache Hudi 0.15's Spark reader as the
 * same values (Spark's types: TINYINT/SMALLINT as byte/short, TIMESTAMP_LTZ as instants, TIME as
 * the int milliseconds of the day, as Hudi maps them); Riverbed's Spark reader returns what Hudi's does.
 */
class HudiReadsFlinkSqlTypesTest {
  static final String COLUMNS = """
      id STRING, ts BIGINT, b BOOLEAN, t TINYINT, s SMALLINT, i INT, f FLOAT, d DOUBLE,
        dec1 DECIMAL(10, 2), dec2 DECIMAL(30, 6), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(3),
        ltz6 TIMESTAMP_LTZ(6), dt DATE, bin BYTES, arr ARRAY<INT>, strs ARRAY<STRING>, m MAP<STRING, DOUBLE>,
        r ROW<x INT, y STRING, z ARRAY<BIGINT>>, PRIMARY KEY (id) NOT ENFORCED""";
  static final String VALUES = "('k1', 1, true, CAST(-7 AS TINYINT), CAST(300 AS SMALLINT), 70000, CAST(1.5 AS FLOAT), 2.25, "
      + "CAST(-12345678.91 AS DECIMAL(10, 2)), CAST('123456789012345678901234.123456' AS DECIMAL(30, 6)), "
      + "TIMESTAMP '2024-01-02 03:04:05.678', TIMESTAMP '1969-12-31 23:59:59.123456', "
      + "TO_TIMESTAMP_LTZ(1700000000123, 3), CAST(TIMESTAMP '2024-05-06 07:08:09.654321' AS TIMESTAMP_LTZ(6)), "
      + "DATE '1999-12-31', X'00FF10', ARRAY[1, 2, 3], ARRAY['a', 'b'], "
      + "MAP['p', 1.5, 'q', CAST(NULL AS DOUBLE)], ROW(5, 'five', ARRAY[CAST(9 AS BIGINT)])), "
      + "('k2', 1, CAST(NULL AS BOOLEAN), CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), CAST(NULL AS INT), "
      + "CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS DECIMAL(30, 6)), "
      + "CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS TIMESTAMP_LTZ(3)), "
      + "CAST(NULL AS TIMESTAMP_LTZ(6)), CAST(NULL AS DATE), CAST(NULL AS BYTES), "
      + "CAST(NULL AS ARRAY<INT>), CAST(NULL AS ARRAY<STRING>), CAST(NULL AS MAP<STRING, DOUBLE>), "
      + "CAST(NULL AS ROW<x INT, y STRING, z ARRAY<BIGINT>>))";

  @TempDir static Path work;

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void flinkSqlTypesReadTheSameInFlinkAndInHudi(String type) throws Exception {
    Path table = work.resolve("types_" + type);
    Path times = work.resolve("times_" + type);
    Path script = work.resolve("types_" + type + ".sql");
    // TIME in a table of its own: Flink 1.20's INSERT ... VALUES drops a TIME(3)'s milliseconds when a ROW
    // value is in the same statement (its own print connector receives them truncated too)
    Files.writeString(script, """
        SET 'table.local-time-zone' = 'UTC';
        CREATE TABLE types (%s) WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = '%s');
        INSERT INTO types VALUES %s;
        SELECT * FROM types;
        SELECT * FROM (VALUES %s);
        CREATE TABLE times (id STRING, tm TIME, tm3 TIME(3), PRIMARY KEY (id) NOT ENFORCED)
          WITH ('connector' = 'hudi', 'path' = '%s', 'table.type' = '%s');
        INSERT INTO times VALUES ('k1', TIME '10:11:12', TIME '23:59:59.123'), ('k2', CAST(NULL AS TIME), CAST(NULL AS TIME(3)));
        SELECT * FROM times;
        """.formatted(COLUMNS, table.toUri(), type, VALUES, VALUES, times.toUri(), type));
    String output = WriteJobProcess.runMain(work.resolve("sql"), WriteJobProcess.HANG_LIMIT, "io.riverbed.flink.sql.SqlScript",
        List.of("--checkpoint-interval", "1s", "--parallelism", "1", script.toString()));

    List<String> printed = output.lines().filter(l -> l.startsWith("+I[")).toList();
    assertThat(printed).as("the three SELECTs' rows:\n" + output).hasSize(6);
    assertThat(printed.subList(0, 2)).as("the table read by Flink vs the values written")
        .containsExactlyInAnyOrderElementsOf(printed.subList(2, 4));
    assertThat(printed.subList(4, 6)).as("TIME values read by Flink")
        .containsExactlyInAnyOrder("+I[k1, 10:11:12, 23:59:59.123]", "+I[k2, null, null]");
    // Spark has no TIME type: from log files Hudi reads Avro's time-millis as the int milliseconds of the
    // day; a Parquet TIME column (COPY_ON_WRITE base files, Hudi's Flink writer's too) its Spark reader refuses
    Rows riverbedTimes = SparkOracle.readWith(RiverbedSource.CLASS_NAME, times, Query.snapshot());
    assertThat(riverbedTimes.nodes().stream().filter(n -> n.get("id").asText().equals("k1"))
        .map(n -> n.get("tm").asLong() + " " + n.get("tm3").asLong()).toList()).containsExactly("36672000 86399123");
    if (type.equals("COPY_ON_WRITE")) {
      assertThatThrownBy(() -> SparkOracle.snapshot(times)).hasStackTraceContaining("Illegal Parquet type: INT32 (TIME(MILLIS,true))");
    } else {
      riverbedTimes.assertSameAs(SparkOracle.snapshot(times), "Riverbed's snapshot of TIME columns vs Hudi 0.15's");
    }

    Rows hudi = SparkOracle.snapshot(table);
    Map<String, JsonNode> byKey = new TreeMap<>();
    hudi.nodes().forEach(n -> byKey.put(n.get("id").asText(), n));
    assertThat(byKey).containsOnlyKeys("k1", "k2");
    JsonNode k1 = byKey.get("k1");
    assertThat(k1.get("b").asBoolean()).isTrue();
    assertThat(k1.get("t").asInt()).isEqualTo(-7);
    assertThat(k1.get("s").asInt()).isEqualTo(300);
    assertThat(k1.get("i").asInt()).isEqualTo(70000);
    assertThat(k1.get("f").asDouble()).isEqualTo(1.5);
    assertThat(k1.get("d").asDouble()).isEqualTo(2.25);
    // JSON numbers lose a DECIMAL(30, 6)'s digits: Spark gives the decimals as text
    assertThat(SparkOracle.load(table, Query.snapshot()).where("id = 'k1'")
        .selectExpr("CAST(dec1 AS STRING)", "CAST(dec2 AS STRING)", "typeof(dec1)", "typeof(dec2)").collectAsList().get(0).toString())
        .isEqualTo("[-12345678.91,123456789012345678901234.123456,decimal(10,2),decimal(30,6)]");
    assertThat(k1.get("ts3").asText()).isEqualTo("2024-01-02T03:04:05.678000Z");
    assertThat(k1.get("ts6").asText()).isEqualTo("1969-12-31T23:59:59.123456Z");
    assertThat(k1.get("ltz").asText()).isEqualTo("2023-11-14T22:13:20.123000Z");
    assertThat(k1.get("ltz6").asText()).isEqualTo("2024-05-06T07:08:09.654321Z");
    assertThat(k1.get("dt").asText()).isEqualTo("1999-12-31");
    assertThat(k1.get("bin").asText()).isEqualTo(java.util.Base64.getEncoder().encodeToString(new byte[] {0, (byte) 0xFF, 0x10}));
    assertThat(k1.get("arr").toString()).isEqualTo("[1,2,3]");
    assertThat(k1.get("strs").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(k1.get("m").get("p").asDouble()).isEqualTo(1.5);
    assertThat(k1.get("m").get("q").isNull()).isTrue();
    assertThat(k1.get("r").toString()).isEqualTo("{\"x\":5,\"y\":\"five\",\"z\":[9]}");
    byKey.get("k2").fields().forEachRemaining(e -> {
      if (!e.getKey().startsWith("_hoodie") && !e.getKey().equals("id") && !e.getKey().equals("ts")) {
        assertThat(e.getValue().isNull()).as("k2." + e.getKey()).isTrue();
      }
    });
    SparkOracle.readWith(RiverbedSource.CLASS_NAME, table, Query.snapshot()).assertSameAs(hudi, "Riverbed's snapshot vs Hudi 0.15's");
  }
}
