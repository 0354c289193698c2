package io.riverbed.it.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table whose columns the write job added from its input ({@code --new-fields add}) reads the
 * same in Apache Hudi 0.15's Spark reader and in Riverbed's: a first run writes four columns; two
 * later runs, still given the four-column schema, meet new fields (a string, an integer that later
 * gets a fraction, a nested object) and add them while they run. Every query kind is compared (on
 * MERGE_ON_READ with a compaction after each commit, so base files and logs of several schemas mix).
 */
class HudiReadsColumnsAddedByTheWriteJobTest {
  private static final String[] CITIES = {"paris", "lyon", "nice"};

  @TempDir static Path work;

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void hudiReadsTheAddedColumnsAsRiverbedDoes(String type) throws Exception {
    Path table = work.resolve("added_" + type);
    Path schema = Files.writeString(work.resolve("trip.avsc"), """
        {"type": "record", "name": "trip", "fields": [{"name": "uuid", "type": "string"},
          {"name": "name", "type": ["null", "string"]}, {"name": "ts", "type": "long"},
          {"name": "city", "type": ["null", "string"]}]}""");
    List<String> first = new ArrayList<>();
    for (int k = 0; k < 20; k++) {
      first.add(trip(k, "v1", 1, ""));
    }
    List<String> second = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      second.add(trip(k, "v2", 2, ", \"coupon\": \"C" + k + "\", \"score\": " + k));
    }
    for (int k = 20; k < 25; k++) {
      second.add(trip(k, "v1", 2, ", \"score\": " + k + ".5, \"info\": {\"vip\": " + (k % 2 == 0) + "}"));
    }
    List<String> third = new ArrayList<>();
    for (int k = 5; k < 15; k++) {
      third.add(trip(k, "v3", 3, k % 2 == 0 ? "" : ", \"info\": {\"vip\": true, \"level\": " + k + "}"));
    }
    run(table, type, schema, "first", first, false);
    run(table, type, schema, "second", second, true);
    run(table, type, schema, "third", third, true);

    Map<String, JsonNode> hudi = new TreeMap<>();
    SparkOracle.snapshot(table).nodes().forEach(n -> hudi.put(n.get("uuid").asText(), n));
    assertThat(hudi).hasSize(25);
    assertThat(summary(hudi.get("k00"))).isEqualTo("v2|C0|0.0|null");
    assertThat(summary(hudi.get("k06"))).isEqualTo("v3|null|null|null");
    assertThat(summary(hudi.get("k07"))).isEqualTo("v3|null|null|{\"vip\":true,\"level\":7}");
    assertThat(summary(hudi.get("k15"))).isEqualTo("v1|null|null|null");
    assertThat(summary(hudi.get("k21"))).isEqualTo("v1|null|21.5|{\"vip\":false,\"level\":null}");

    if (type.equals("MERGE_ON_READ")) {
      assertThat(TimelineInstant.completed(table)).as("compactions of " + table)
          .anyMatch(i -> i.action().equals("commit"));
    }
    for (Query q : HudiReadsFlinkTablesTest.queries(table)) {
      Rows fromHudi = SparkOracle.read(table, q);
      HudiReadsFlinkTablesTest.riverbed(table, q).assertSameAs(fromHudi, table + " " + q + ", Riverbed vs Hudi 0.15");
    }
  }

  /** "name|coupon|score|info" of a row Hudi read. */
  private static String summary(JsonNode row) {
    JsonNode info = row.get("info");
    return row.get("name").asText() + "|" + text(row.get("coupon")) + "|"
        + (row.get("score") == null || row.get("score").isNull() ? "null" : row.get("score").asDouble()) + "|"
        + (info == null || info.isNull() ? "null" : info.toString());
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() ? "null" : node.asText();
  }

  private static String trip(int k, String version, long ts, String more) {
    return "{\"uuid\": \"k%02d\", \"name\": \"%s\", \"ts\": %d, \"city\": \"%s\"%s}".formatted(k, version, ts,
        CITIES[k % CITIES.length], more);
  }

  private static void run(Path table, String type, Path schema, String name, List<String> lines, boolean newFields)
      throws IOException {
    Path input = Files.write(work.resolve(type + "-" + name + ".jsonl"), lines);
    List<String> args = new ArrayList<>(List.of("--source", "file", "--input", input.toString(),
        "--schema", schema.toString(), "--table-path", table.toString(), "--table-name", "trips",
        "--table-type", type, "--record-key", "uuid", "--precombine", "ts", "--partition-path", "city",
        "--checkpoint-interval", "300ms", "--parallelism", "2",
        // time travel to every write is compared with Hudi's answer: the job must not clean or archive
        "--set", "clean.async.enabled=false", "--set", "hoodie.archive.automatic=false",
        "--set", "compaction.delta_commits=1", "--set", "compaction.async.enabled=true"));
    if (newFields) {
      args.addAll(List.of("--new-fields", "add"));
    }
    WriteJobProcess.run(work.resolve("jobs"), WriteJobProcess.HANG_LIMIT, args);
  }
}
