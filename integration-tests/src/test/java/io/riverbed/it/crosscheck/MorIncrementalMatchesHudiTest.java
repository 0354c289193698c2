package io.riverbed.it.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.AppendedLogFiles;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.riverbed.RiverbedScenarioWriter;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.ScenarioWriter;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.Trip;
import io.riverbed.it.scenario.TripGenerator;
import io.riverbed.it.spark.RiverbedSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Merge-on-read incremental queries over file slices whose logs hold several delta commits, by
 * Riverbed's core reader and its Spark DataSource, row for row against Apache Hudi 0.15's Spark
 * DataSource. Hudi 0.15 builds the range's slices from the files its commits wrote, merges every
 * committed block of those log files up to the range's last commit (its log scanner has no instant
 * range), skips base-file row groups whose commit-time statistics lie outside the range, and then
 * keeps the rows whose commit time lies in the range. So where one log file holds several delta
 * commits, a key updated inside the range with a smaller ordering value than its version of an
 * earlier delta commit is absent (the earlier version wins the merge and its commit time is
 * outside); a key deleted inside the range is absent; a key inserted before the range and updated
 * inside shows its update.
 *
 * <p>One history in one small file group, as three tables: written by Hudi 0.15's Spark writer
 * (which rolls a new log file per delta commit on this file system); that table with each slice's
 * log files joined into one, the layout writers on appendable storage leave (Hudi on HDFS, Hudi's
 * Flink writer); and the history written by Riverbed's core writer (also a log file per delta
 * commit), joined likewise. Ranges begin before, at and after the slices' base instants (from
 * {@code 000} and from every commit) and end at the next commit, the one after and the last.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MorIncrementalMatchesHudiTest {

  private static final long SEED = 20_261_202L;
  private static final List<String[]> ONE_PARTITION = List.<String[]>of(TripGenerator.PARTITIONS.get(0));

  private final ScenarioTable hudiWritten;
  private final ScenarioTable hudiWrittenAppended;
  private final ScenarioTable riverbedWrittenAppended;

  MorIncrementalMatchesHudiTest() throws IOException {
    Path root = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "mor-incremental-");
    hudiWritten = write(hudiWrites(root.resolve("hudi_mor_incr")));
    hudiWrittenAppended = appended(hudiWritten, root.resolve("hudi_mor_incr_appended"));
    riverbedWrittenAppended = appended(write(riverbedWrites(root.resolve("rb_mor_incr"))), null);
  }

  /**
   * {@code table} (copied to {@code copy} unless null) with each slice's log files joined into one,
   * as a writer on storage that can append leaves them ({@link AppendedLogFiles}).
   */
  private static ScenarioTable appended(ScenarioTable table, Path copy) throws IOException {
    Path path = table.path();
    if (copy != null) {
      try (Stream<Path> files = Files.walk(table.path())) {
        for (Path f : files.toList()) {
          Files.copy(f, copy.resolve(table.path().relativize(f).toString()));
        }
      }
      path = copy;
    }
    int joined = AppendedLogFiles.join(localFileSystem(), new org.apache.hadoop.fs.Path(path.toUri()));
    assertThat(joined).as("log files appended to an earlier one in " + path).isGreaterThanOrEqualTo(3);
    TableSpec spec = table.spec();
    return new ScenarioTable(path, new TableSpec(spec.name() + "_appended", spec.type(), spec.recordKeyFields(),
        spec.hiveStylePartitioning(), spec.extraOptions()), table.commits(), List.of());
  }

  /** The writes of one history, by either writer. */
  private record Writes(Consumer<List<Trip>> insert, Consumer<List<Trip>> upsert, Consumer<List<Trip>> delete,
      Consumer<List<Trip>> upsertThenCompact, Supplier<ScenarioTable> finish) {}

  private static TableSpec spec(Path path) {
    return new TableSpec(path.getFileName().toString(), TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false,
        Map.of("hoodie.metadata.enable", "false"));
  }

  /** Hudi 0.15's Spark writer; its compaction runs inline after the upsert. */
  private static Writes hudiWrites(Path path) {
    var w = new ScenarioWriter(path, spec(path));
    return new Writes(w::insert, w::upsert, w::delete,
        t -> w.upsert(t, Map.of("hoodie.compact.inline", "true", "hoodie.compact.inline.max.delta.commits", "1")),
        w::finish);
  }

  /** Riverbed's core writer. */
  private static Writes riverbedWrites(Path path) {
    var w = RiverbedScenarioWriter.onFileSystem(localFileSystem(), new org.apache.hadoop.fs.Path(path.toString()),
        spec(path), 256 * 1024);
    return new Writes(w::bulkInsert, w::upsert, w::delete, t -> {
      w.upsert(t);
      w.compact();
    }, w::finish);
  }

  /**
   * Twelve keys in one file group, all first written with ts 1000; then delta commits that update
   * keys with larger and smaller ts than their version in the base file or in an earlier log block,
   * delete keys (one re-inserted later), compact, and update the compacted slice.
   */
  private static ScenarioTable write(Writes writes) {
    var gen = new TripGenerator(SEED);
    List<Trip> k = firstTrips(gen);
    writes.insert().accept(k);
    writes.upsert().accept(List.of(gen.update(k.get(0), 3_000), gen.update(k.get(1), 2_000), gen.update(k.get(2), 2_000),
        gen.update(k.get(5), 2_000), gen.update(k.get(7), 2_000), gen.update(k.get(8), 2_000)));
    writes.upsert().accept(List.of(gen.update(k.get(0), 2_500), gen.update(k.get(3), 500), gen.update(k.get(1), 2_500),
        gen.update(k.get(6), 2_000), gen.update(k.get(8), 1_500)));
    writes.delete().accept(List.of(k.get(2), k.get(4), k.get(6)));
    writes.upsert().accept(List.of(gen.update(k.get(5), 1_500), gen.update(k.get(7), 9_000), gen.update(k.get(2), 100),
        gen.update(k.get(9), 1_200)));
    writes.upsertThenCompact().accept(List.of(gen.update(k.get(10), 2_000), gen.update(k.get(0), 100)));
    writes.upsert().accept(List.of(gen.update(k.get(7), 100), gen.update(k.get(10), 3_000), gen.update(k.get(11), 500)));
    writes.upsert().accept(List.of(gen.update(k.get(11), 400), gen.update(k.get(10), 2_500)));
    return writes.finish().get();
  }

  Stream<Arguments> ranges() {
    List<Arguments> out = new ArrayList<>();
    for (ScenarioTable table : List.of(hudiWritten, hudiWrittenAppended, riverbedWrittenAppended)) {
      List<String> times = table.commitTimes();
      for (int b = -1; b + 1 < times.size(); b++) {
        String begin = b < 0 ? "000" : times.get(b);
        var ends = new TreeSet<>(List.of(times.get(b + 1), times.get(Math.min(b + 2, times.size() - 1)),
            times.get(times.size() - 1)));
        ends.forEach(end -> out.add(Arguments.of(table, Query.incremental(begin, end))));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("ranges")
  void coreReaderAndDataSourceReturnHudisRows(ScenarioTable table, Query query) {
    Rows hudi = SparkOracle.read(table.path(), query);
    Rows core = Rows.ofJsonLines(TableReads.lines(open(table), QuerySpec.fromOptions(query.hudiOptions())));
    core.assertSameAs(hudi, table + " " + query + ", Riverbed's core reader vs Hudi");
    Rows dataSource = SparkOracle.canonicalRows(RiverbedSource.load(RiverbedSource.CLASS_NAME, table.path(), query));
    dataSource.assertSameAs(hudi, table + " " + query + ", Riverbed's DataSource vs Hudi");
  }

  /**
   * What Hudi does, on the second delta commit's range: it reads only the files that range's commits
   * wrote, with the length their write stats give, and merges every committed block in them.
   */
  @Test
  void hudiMergesTheEarlierBlocksOfALogFileTheRangeAppendedTo() {
    assertThat(keysOf(SparkOracle.read(hudiWritten.path(), thirdCommitOnly(hudiWritten))))
        .as("Hudi's own writer rolled a new log file for the third commit: the range's slice holds only that "
            + "file, so k0 and k8 show the versions that lose to the second commit's")
        .containsExactlyInAnyOrderElementsOf(keyNames(0, 1, 3, 6, 8));
    assertThat(keysOf(SparkOracle.read(hudiWrittenAppended.path(), thirdCommitOnly(hudiWrittenAppended))))
        .as("the third commit appended to the log file of the second: Hudi merges both commits' blocks, "
            + "the second commit's k0 and k8 win and lie outside the range")
        .containsExactlyInAnyOrderElementsOf(keyNames(1, 3, 6));
  }

  /** The twelve keys' first versions, all with ts 1000. */
  private static List<Trip> firstTrips(TripGenerator gen) {
    return gen.newTrips(12, ONE_PARTITION, 1_000, 1);
  }

  /** The record keys of the history's keys {@code k<i>}. */
  private static List<String> keyNames(int... indices) {
    List<Trip> k = firstTrips(new TripGenerator(SEED));
    return java.util.Arrays.stream(indices).mapToObj(i -> k.get(i).uuid()).toList();
  }

  private static java.util.Set<String> keysOf(Rows rows) {
    return rows.values("_hoodie_record_key");
  }

  private static Query thirdCommitOnly(ScenarioTable table) {
    return Query.incremental(table.commitTimes().get(1), table.commitTimes().get(2));
  }

  @Test
  void hudisSliceHoldsSeveralDeltaCommitsInSeveralLogFiles() {
    assertThat(maxDeltaCommitsInOneSlice(hudiWritten)).isGreaterThanOrEqualTo(4);
  }

  @Test
  void appendedLogFileHoldsSeveralDeltaCommits() {
    assertThat(maxDeltaCommitsInOneLogFile(hudiWritten)).isEqualTo(1);
    assertThat(maxDeltaCommitsInOneLogFile(hudiWrittenAppended)).isGreaterThanOrEqualTo(4);
    assertThat(maxDeltaCommitsInOneLogFile(riverbedWrittenAppended)).isGreaterThanOrEqualTo(4);
  }

  /** The most distinct instants of data/delete blocks in the logs of one file slice, over every commit. */
  private static int maxDeltaCommitsInOneSlice(ScenarioTable table) {
    int max = 0;
    for (List<LogFile> logs : sliceLogs(table)) {
      var instants = new TreeSet<String>();
      logs.forEach(l -> instants.addAll(blockInstants(table, l)));
      max = Math.max(max, instants.size());
    }
    return max;
  }

  private static int maxDeltaCommitsInOneLogFile(ScenarioTable table) {
    return sliceLogs(table).stream().flatMap(List::stream).mapToInt(l -> blockInstants(table, l).size()).max().orElse(0);
  }

  private static List<List<LogFile>> sliceLogs(ScenarioTable table) {
    Table t = open(table);
    Timeline timeline = t.refreshTimeline();
    List<List<LogFile>> out = new ArrayList<>();
    for (String time : table.commitTimes()) {
      for (FileSlice slice : FileSystemViewLoader.load(t, timeline).latestMergedSlices(time)) {
        out.add(slice.logFiles());
      }
    }
    return out;
  }

  private static TreeSet<String> blockInstants(ScenarioTable table, LogFile log) {
    var instants = new TreeSet<String>();
    try (LogFileReader reader = LogFileReader.open(open(table).fs(), log.path())) {
      while (reader.hasNext()) {
        LogBlock block = reader.next();
        if (block.instantTime() != null) {
          instants.add(block.instantTime());
        }
      }
    }
    return instants;
  }

  private static Table open(ScenarioTable table) {
    return Table.open(localFileSystem(), new org.apache.hadoop.fs.Path(table.path().toUri()));
  }

  private static FileSystem localFileSystem() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
