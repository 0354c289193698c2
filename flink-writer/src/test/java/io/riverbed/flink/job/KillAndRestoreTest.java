package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.kafka.KafkaBroker;
import io.riverbed.format.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write job as users run it — a separate JVM on an unbounded Kafka topic, checkpoints retained
 * in {@code --checkpoint-dir} — killed with SIGKILL ({@link Process#destroyForcibly()}) and
 * restarted with {@code --restore latest}: the table ends up equal to the expected rows (no loss,
 * no duplicates) and no write instant stays pending.
 *
 * <p>Kill 1 lands after the first commit; kill 2 as soon as the restored job opens an instant
 * (mid-batch: the next restore rolls it back, unless a checkpoint covered it already); kills 3 and 4
 * the moment a new checkpoint's {@code _metadata} appears while an instant is pending, so they often
 * land between a checkpoint and its commit (the restored coordinator then commits that instant).
 * The test cannot force where a kill lands: it prints where each one did, judged from the final
 * timeline.
 */
public class KillAndRestoreTest {
  private static final String TOPIC = "rides";
  private static final int KEYS = 3_000;
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir static Path work;
  static KafkaBroker broker;

  @BeforeAll
  static void startBroker() throws Exception {
    broker = KafkaBroker.start(work.resolve("kafka"));
    broker.createTopic(TOPIC, 2);
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  /** The changes sent so far and the table they must leave: key → "amount|ts|partition". */
  private static final class Changes {
    private final Map<String, String> expected = new TreeMap<>();
    private final Set<String> deleted = new HashSet<>();
    private final java.util.Random random = new java.util.Random(42);
    private long ts;

    /** The next {@code n} changes as JSON per Kafka partition (a key always goes to the same one). */
    List<List<String>> next(int n) {
      List<List<String>> byPartition = List.of(new ArrayList<>(), new ArrayList<>());
      for (int i = 0; i < n; i++) {
        String key;
        do {
          key = String.format("ride-%05d", random.nextInt(KEYS));
        } while (deleted.contains(key));
        long t = ++ts;
        String region = List.of("eu", "us", "asia").get(Math.floorMod(key.hashCode(), 3));
        double amount = (t % 1000) + 0.5;
        boolean delete = random.nextInt(50) == 0 && expected.containsKey(key);
        if (delete) {
          deleted.add(key);
          expected.remove(key);
        } else {
          expected.put(key, amount + "|" + t + "|" + region);
        }
        byPartition.get(Math.floorMod(key.hashCode(), 2)).add(String.format(
            "{\"id\": \"%s\", \"ts\": %d, \"amount\": %s, \"region\": \"%s\", \"_hoodie_is_deleted\": %s}",
            key, t, amount, region, delete));
      }
      return byPartition;
    }
  }

  private static void send(List<List<String>> byPartition) {
    for (int p = 0; p < byPartition.size(); p++) {
      broker.send(TOPIC, p, byPartition.get(p));
    }
  }

  private List<String> args(Path table, Path checkpoints, String... more) throws IOException {
    Path schema = Files.writeString(work.resolve("rides.avsc"), """
        {"type": "record", "name": "ride", "fields": [{"name": "id", "type": "string"}, {"name": "ts", "type": "long"},
          {"name": "amount", "type": "double"}, {"name": "region", "type": "string"},
          {"name": "_hoodie_is_deleted", "type": "boolean", "default": false}]}""");
    List<String> a = new ArrayList<>(List.of("--source", "kafka", "--bootstrap-servers", broker.bootstrapServers(),
        "--topic", TOPIC, "--starting-offsets", "earliest", "--schema", schema.toString(),
        "--table-path", table.toString(), "--table-name", "rides", "--table-type", "MERGE_ON_READ",
        "--record-key", "id", "--precombine", "ts", "--partition-path", "region",
        "--checkpoint-interval", "400ms", "--checkpoint-dir", checkpoints.toString(), "--parallelism", "2"));
    a.addAll(List.of(more));
    return a;
  }

  /** The write job in a child JVM, output to {@code log}. */
  private static Process start(List<String> args, Path log) throws IOException {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")), "-Duser.timezone=UTC"));
    cmd.addAll(FLINK_JVM_FLAGS);
    cmd.addAll(List.of("-cp", classpath, WriteJob.class.getName()));
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** The JVM flags a Flink job in a child JVM of the tests needs on Java 17. */
  public static final List<String> FLINK_JVM_FLAGS = flinkFlags();

  private static List<String> flinkFlags() {
    List<String> flags = new ArrayList<>(List.of("--add-exports=java.base/sun.net.util=ALL-UNNAMED",
        "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED", "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED"));
    for (String p : List.of("java.lang", "java.net", "java.io", "java.nio", "sun.nio.ch", "java.lang.reflect", "java.text",
        "java.time", "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "java.util.concurrent.locks")) {
      flags.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
    }
    return flags;
  }

  /** SIGKILL; a process killed by signal 9 exits with 128 + 9 on Linux. */
  private static void kill(Process p) throws InterruptedException {
    p.destroyForcibly();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("exit value of the killed job (SIGKILL)").isEqualTo(137);
  }

  private static void await(String what, Process job, Path log, BooleanSupplier condition) throws InterruptedException {
    Await.await(what, WAIT).every(Duration.ofMillis(3))
        .guardedBy(Await.alive(job, "the job", () -> tail(log)))
        .explainedBy(() -> tail(log))
        .until(condition::getAsBoolean);
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 50), lines.size()));
  }

  private static List<String> hoodieFiles(Path table) {
    Path meta = table.resolve(".hoodie");
    if (!Files.isDirectory(meta)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(meta)) {
      return files.map(p -> p.getFileName().toString()).filter(f -> !f.startsWith(".")).toList();
    } catch (IOException e) {
      return List.of(); // listing raced with a rename; the caller polls again
    }
  }

  static long completedDeltaCommits(Path table) {
    return hoodieFiles(table).stream().filter(f -> f.matches("\\d+\\.deltacommit")).count();
  }

  /** Requested or inflight instants with no completed state. */
  static List<String> pendingInstants(Path table) {
    List<String> files = hoodieFiles(table);
    Set<String> completed = new HashSet<>();
    files.stream().filter(f -> f.matches("\\d+\\.\\w+")).forEach(f -> completed.add(f.substring(0, f.indexOf('.'))));
    return files.stream().filter(f -> f.endsWith(".requested") || f.endsWith(".inflight"))
        .filter(f -> !completed.contains(f.substring(0, f.indexOf('.')))).sorted().toList();
  }

  /** Completed checkpoints (with {@code _metadata}) under the checkpoint directory. */
  static Set<String> completedCheckpoints(Path checkpoints) {
    Set<String> out = new HashSet<>();
    if (!Files.isDirectory(checkpoints)) {
      return out;
    }
    try (Stream<Path> metadata = Files.find(checkpoints, 3, (p, a) -> p.getFileName().toString().equals("_metadata"))) {
      metadata.forEach(p -> out.add(checkpoints.relativize(p.getParent()).toString()));
    } catch (IOException | UncheckedIOException e) {
      // a checkpoint folder was being written or subsumed while listing; poll again
    }
    return out;
  }

  private static Map<String, String> snapshotOrEmpty(Path table) {
    try {
      return Files.exists(table.resolve(".hoodie").resolve("hoodie.properties")) ? WriteJobEndToEndTest.snapshot(table) : Map.of();
    } catch (Exception e) {
      return Map.of(); // a file being written or cleaned; poll again
    }
  }

  /**
   * Where a kill landed, judged once the table is complete: an instant pending at the kill that
   * ended up completed was covered by a checkpoint whose commit the kill pre-empted (the restored
   * coordinator committed it); one that did not was rolled back (no checkpoint covered it yet).
   */
  private static String landing(List<String> pendingAtKill, Path table) {
    if (pendingAtKill.isEmpty()) {
      return "no instant pending (after a commit, before the next batch opened one)";
    }
    List<String> completed = hoodieFiles(table).stream().filter(f -> f.matches("\\d+\\.deltacommit"))
        .map(f -> f.substring(0, f.indexOf('.'))).toList();
    List<String> out = new ArrayList<>();
    for (String instant : pendingAtKill.stream().map(f -> f.substring(0, f.indexOf('.'))).distinct().toList()) {
      out.add(completed.contains(instant)
          ? instant + " pending -> committed on restore: the kill landed between a checkpoint and its commit"
          : instant + " pending -> rolled back on restore: the kill landed before a checkpoint covered it");
    }
    return String.join("; ", out);
  }

  @Test
  void killedJobRestoredFromTheLatestCheckpointLosesAndDuplicatesNothing() throws Exception {
    long start = System.nanoTime();
    Path table = work.resolve("rides");
    Path checkpoints = work.resolve("checkpoints");
    Changes stream = new Changes();
    List<List<String>> pendingAtKills = new ArrayList<>();

    // Run 1: a fresh job; killed once the first wave is committed.
    Path log1 = work.resolve("run-1.log");
    Process job = start(args(table, checkpoints), log1);
    send(stream.next(2_000));
    await("a first commit and a retained checkpoint", job, log1,
        () -> completedDeltaCommits(table) >= 1 && !completedCheckpoints(checkpoints).isEmpty());
    kill(job);
    pendingAtKills.add(pendingInstants(table));
    System.out.printf("kill 1 after %d delta commit(s); pending %s%n", completedDeltaCommits(table), pendingAtKills.get(0));
    send(stream.next(1_500)); // produced while no job runs

    // Runs 2 to 4: restored, a wave produced while they run, killed mid-batch (2) or right after a checkpoint (3, 4).
    for (int run = 2; run <= 4; run++) {
      Path log = work.resolve("run-" + run + ".log");
      job = start(args(table, checkpoints, "--restore", "latest"), log);
      Set<String> before = completedCheckpoints(checkpoints);
      List<List<String>> wave = stream.next(2_000);
      Thread producer = new Thread(() -> {
        for (int i = 0; i < 20; i++) {
          int part = i;
          send(List.of(slice(wave.get(0), part, 20), slice(wave.get(1), part, 20)));
        }
      }, "producer-" + run);
      producer.start();
      long commitsBefore = completedDeltaCommits(table);
      if (run == 2) {
        // Mid-batch: as soon as the restored job opens an instant, before anything commits.
        await("an instant opened by the restored job", job, log, () -> pendingInstants(table).stream()
            .anyMatch(f -> f.endsWith(".inflight")) && completedDeltaCommits(table) == commitsBefore);
      } else {
        Set<String> seen = new HashSet<>(before);
        await("a new checkpoint while an instant is pending", job, log, () -> {
          Set<String> fresh = completedCheckpoints(checkpoints);
          fresh.removeAll(seen);
          seen.addAll(fresh);
          // Aim between a checkpoint and its commit; once the wave is all sent it may be all
          // committed with nothing left open, so then any new checkpoint will do (where the
          // kill landed is logged, not asserted).
          return !fresh.isEmpty() && completedDeltaCommits(table) > commitsBefore
              && (pendingInstants(table).stream().anyMatch(f -> f.endsWith(".deltacommit.inflight")) || !producer.isAlive());
        });
      }
      kill(job);
      pendingAtKills.add(pendingInstants(table));
      System.out.printf("kill %d: pending at the kill %s%n", run, pendingAtKills.get(run - 1));
      producer.join();
    }

    // Run 5: restored, the last wave, then stopped once everything is committed.
    Path log5 = work.resolve("run-5.log");
    job = start(args(table, checkpoints, "--restore", "latest"), log5);
    send(stream.next(1_500));
    Map<String, String> expected = Map.copyOf(stream.expected);
    Process last = job;
    await("the table to equal the expected rows", last, log5, () -> snapshotOrEmpty(table).equals(expected));
    await("no pending instant", last, log5, () -> pendingInstants(table).isEmpty());
    kill(job);
    for (int k = 0; k < pendingAtKills.size(); k++) {
      System.out.println("KillAndRestoreTest kill " + (k + 1) + ": " + landing(pendingAtKills.get(k), table));
    }

    assertThat(WriteJobEndToEndTest.snapshot(table)).as("the table after 4 kills").containsExactlyInAnyOrderEntriesOf(expected);
    assertThat(pendingInstants(table)).as("pending instants after the last run").isEmpty();
    System.out.println("KillAndRestoreTest timeline: " + hoodieFiles(table).stream().filter(f -> f.matches("\\d+\\.\\w+")).sorted().toList());
    System.out.printf("KillAndRestoreTest: %d keys, %d delta commits, %.1f s%n", expected.size(), completedDeltaCommits(table),
        (System.nanoTime() - start) / 1e9);
  }

  private static List<String> slice(List<String> all, int part, int parts) {
    int per = (all.size() + parts - 1) / parts;
    return all.subList(Math.min(all.size(), part * per), Math.min(all.size(), (part + 1) * per));
  }
}
