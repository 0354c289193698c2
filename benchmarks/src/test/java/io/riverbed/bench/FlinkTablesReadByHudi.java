package io.riverbed.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The tables the Flink write benchmark's last round left ({@link FlinkWriteBenchmark}: the Riverbed
 * sinks' {@code table-riverbed-*} folders) read by Apache Hudi 0.15's Spark reader and compared with
 * the model of the benchmark's input ({@link HudiModelCheck}). Runs after the write benchmark in a
 * JVM of its own, as Spark and Hudi are not on the Flink benchmark's classpath.
 */
class FlinkTablesReadByHudi {
  private final Path dir = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();

  @Test
  void lastFlinkTablesHoldTheModelOfTheirInput() throws IOException {
    Path flink = dir.resolve("flink");
    Path input = flink.resolve("trips.jsonl");
    Assumptions.assumeTrue(Files.isRegularFile(input), "no Flink write benchmark input in " + flink);
    List<Path> tables;
    try (Stream<Path> listed = Files.list(flink)) {
      tables = listed.filter(p -> p.getFileName().toString().startsWith("table-riverbed-"))
          .filter(p -> Files.isDirectory(p.resolve(".hoodie"))).sorted().toList();
    }
    Assumptions.assumeFalse(tables.isEmpty(), "no Riverbed table left by the Flink write benchmark in " + flink);
    Report report = new Report(dir, "flink-write-hudi-check");
    report.format("- the last round's Riverbed tables of the Flink write benchmark, read by Apache Hudi 0.15's Spark "
        + "reader (snapshot), against the model of %s (per key its last line)", input.getFileName());
    List<String> differing = new ArrayList<>();
    for (Path table : tables) {
      HudiModelCheck check = HudiModelCheck.of(table, input, dir.resolve("spark-scratch"));
      report.format("- %s: %s", table.getFileName(), check.describe());
      if (!check.agrees()) {
        differing.add(table.getFileName() + ": " + check.describe());
      }
    }
    report.line("- written to " + report.write());
    assertThat(differing).as("tables whose rows in Hudi's read differ from the model").isEmpty();
  }
}
