package io.riverbed.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/quickstart.sh}, the README's run command, end to end on the jars the build just
 * made: two bounded Flink runs into a MERGE_ON_READ table, then the three Spark queries with the
 * rows the sample data implies. Also through a local Kafka broker ({@code --kafka}). The elapsed
 * time is printed for docs/QUICKSTART.md; it is not asserted, the machine's load decides it.
 */
class QuickstartScriptTest {
  static final Path SCRIPT = Path.of("..", "deploy", "quickstart.sh").toAbsolutePath().normalize();
  static final Pattern COMMITTED = Pattern.compile("(?m)^quickstart: committed (\\d{17})$");

  @TempDir Path dir;

  record Run(int status, String output, long seconds) {}

  Run quickstart(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(), "--dir", dir.toString()));
    command.addAll(List.of(args));
    Path out = dir.resolveSibling(dir.getFileName() + ".out");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().put("JAVA", System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    pb.environment().put("RIVERBED_NO_BUILD", "1");
    pb.environment().put("RIVERBED_JAVA_OPTS", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    pb.environment().remove("SPARK_HOME");
    long start = System.nanoTime();
    Process p = pb.start();
    // generous: ~1 minute on a quiet machine, over 6 at a load average of 25 beside another test fork
    if (!p.waitFor(15, TimeUnit.MINUTES)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("quickstart.sh did not finish in 15 minutes:\n" + Files.readString(out, StandardCharsets.UTF_8));
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    String output = Files.readString(out, StandardCharsets.UTF_8);
    System.out.printf("quickstart.sh %s: %d s (load average %.1f)%n", String.join(" ", args), seconds,
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    return new Run(p.exitValue(), output, seconds);
  }

  @Test
  void writesTheTripsTableAndPrintsTheThreeQueries() throws Exception {
    assertTheThreeQueries(quickstart());
  }

  @Test
  void streamsTheSameDataThroughALocalKafkaBroker() throws Exception {
    Run run = quickstart("--kafka");
    assertTheThreeQueries(run);
    assertThat(run.output()).contains("quickstart: produced 3000 JSON lines of trips-1.jsonl to topic 'trips'",
        "quickstart: produced 1080 JSON lines of trips-2.jsonl to topic 'trips'", "quickstart: stopping the Kafka broker");
  }

  private static void assertTheThreeQueries(Run run) {
    String out = run.output();
    assertThat(run.status()).as(out).isZero();
    assertThat(out).as(out).contains("quickstart: sample data: 3000 inserts, 1080 updates and deletes")
        .doesNotContain("building");

    List<String> commits = committed(out);
    assertThat(commits).as(out).hasSizeGreaterThanOrEqualTo(2).isSorted().doesNotHaveDuplicates();
    List<String> batch1 = committed(section(out, "quickstart: writing batch 1", "quickstart: writing batch 2"));
    assertThat(batch1).as(out).isNotEmpty();
    String first = batch1.get(batch1.size() - 1);
    List<String> batch2 = commits.subList(commits.indexOf(first) + 1, commits.size());
    assertThat(batch2).as(out).isNotEmpty();

    // 3,000 trips over 4 cities, every 25th deleted: 720 left in each.
    String snapshot = section(out, "== snapshot", "== incremental");
    for (String city : List.of("chennai", "paris", "san_francisco", "sao_paulo")) {
      assertThat(snapshot).as(out).containsPattern("\\|" + city + " *\\|720 *\\|");
    }
    // Batch 2 in key order: trip 3 (updated, ts 3 + 1000 + 5000); trip 15's update has an older ts
    // than the stored record, so the writer drops it (event-time order across commits, CONCEPTS.md)
    // and the next row is trip 18. A bounded run may commit its input in more than one checkpoint:
    // any of batch 2's commits.
    String incremental = section(out, "== incremental: what changed after " + first, "== time travel");
    List<String> rows = incremental.lines().filter(l -> l.startsWith("|2")).toList();
    assertThat(rows).as(out).hasSize(5);
    assertThat(rows).as(out).allSatisfy(row -> assertThat(batch2).contains(row.substring(1, 18)));
    assertThat(incremental).as(out).containsPattern("\\|trip-000003 *\\|6003 *\\|")
        .containsPattern("\\|trip-000018 *\\|6018 *\\|").doesNotContain("trip-000015");
    String timeTravel = section(out, "== time travel: the table as of " + first, "quickstart: table at");
    assertThat(timeTravel).as(out).containsPattern("\\|3000 *\\|1000 *\\|3999 *\\|");
  }

  private static List<String> committed(String output) {
    List<String> commits = new ArrayList<>();
    Matcher m = COMMITTED.matcher(output);
    while (m.find()) {
      commits.add(m.group(1));
    }
    return commits;
  }

  private static String section(String out, String from, String to) {
    int start = out.indexOf(from);
    assertThat(start).as("'%s' in:%n%s", from, out).isNotNegative();
    int end = out.indexOf(to, start);
    assertThat(end).as("'%s' in:%n%s", to, out).isGreaterThan(start);
    return out.substring(start, end);
  }
}
