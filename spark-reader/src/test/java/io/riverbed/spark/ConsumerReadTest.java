package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.Orders;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.WriteOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental reads with {@code consumer-id} on a MERGE_ON_READ table that a writer keeps writing,
 * compacting, cleaning (two commits retained) and archiving: a consumer that reads one commit per
 * batch, by end instant, far behind the writer, still gets every change; once it expires, the
 * cleaner deletes what its next batch needs and that read is refused at load() instead of failing
 * on a missing file.
 */
class ConsumerReadTest {
  static final CleanOptions RETAIN_TWO = CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2"));
  static final ArchiveOptions KEEP_THREE_TO_FIVE = ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "3",
      ArchiveOptions.MAX_COMMITS, "5", ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"));

  final SparkSession spark = SparkTestSession.get();
  /** The clock the writer's cleans and archivals measure consumer expiry on, unless a test moves it on. */
  final Clock now = Clock.systemUTC();
  @TempDir java.nio.file.Path dir;

  /** The writer of an {@link Orders} table: a round upserts k0..k5 with {@code name = r<round>}; a compaction after every third. */
  static final class Writer {
    final Table table;
    final SingleTaskEngine engine;
    /** The delta commit of each round, round 1 first. */
    final List<String> rounds = new ArrayList<>();
    int filesCleaned;
    boolean archive = true;

    Writer(java.nio.file.Path dir) throws Exception {
      FileSystem fs = FileSystem.getLocal(new Configuration());
      table = Table.create(fs, new Path(dir.toUri().toString(), "orders"), Orders.config(TableType.MERGE_ON_READ));
      engine = new SingleTaskEngine(table, Orders.SCHEMA, WriteOptions.defaults());
    }

    String path() {
      return table.basePath().toString();
    }

    /**
     * The next round, then (every third round) a compaction, then a clean and (unless {@link #archive}
     * is off) an archival, whose consumer expiry is measured on {@code clock}.
     */
    void round(Clock clock) {
      int round = rounds.size() + 1;
      rounds.add(engine.write(WriteOperationType.UPSERT, Orders.round(table.config(), round), Map.of()));
      if (round % 3 == 0) {
        String compaction = CompactionScheduler.of(table).execute().instantTime().orElseThrow();
        CompactionRunner.of(table, compaction).execute();
      }
      for (CleanResult clean : Cleaner.of(table).options(RETAIN_TWO).wallClock(clock).execute()) {
        filesCleaned += clean.filesDeleted();
      }
      if (archive) {
        Archiver.of(table).options(KEEP_THREE_TO_FIVE).wallClock(clock).execute();
      }
    }

    void rounds(int count, Clock clock) {
      for (int i = 0; i < count; i++) {
        round(clock);
      }
    }
  }

  /** The rows of the incremental read (begin, end] for consumer {@code etl}, as {@code key name commit-time}. */
  List<String> read(Writer w, String begin, String end) {
    var reader = spark.read().format("hudi").option("hoodie.datasource.query.type", "incremental")
        .option("consumer-id", "etl").option("hoodie.datasource.read.end.instanttime", end);
    if (begin != null) {
      reader = reader.option("hoodie.datasource.read.begin.instanttime", begin);
    }
    return reader.load(w.path()).select("id", "name", "_hoodie_commit_time").collectAsList().stream()
        .map(ConsumerReadTest::line).sorted().toList();
  }

  static String line(Row r) {
    return r.getString(0) + " " + r.getString(1) + " " + r.getString(2);
  }

  /** What the batch of round {@code round} returns: every key with that round's name and commit time. */
  static List<String> changesOf(Writer w, int round) {
    List<String> out = new ArrayList<>();
    for (int k = 0; k < Orders.KEYS; k++) {
      out.add("k" + k + " r" + round + " " + w.rounds.get(round - 1));
    }
    return out;
  }

  String position(Writer w) {
    return ConsumerRegistry.of(w.table).get("etl").orElseThrow().position();
  }

  /**
   * Reads the batch of round {@code round} as consumer {@code etl}, by end instant from the previous
   * round's commit, and checks that it holds that round's changes and recorded its begin.
   */
  void readBatch(Writer w, int round) {
    String begin = round == 1 ? "000" : w.rounds.get(round - 2);
    assertThat(read(w, begin, w.rounds.get(round - 1))).as("batch of round " + round)
        .containsExactlyElementsOf(changesOf(w, round));
    assertThat(position(w)).as("the begin of the read, not its end").isEqualTo(begin);
  }

  @Test
  void aConsumerFarBehindTheCleanerReadsEveryChangeOneCommitPerBatch() throws Exception {
    Writer w = new Writer(dir);
    w.rounds(2, now);
    readBatch(w, 1);

    w.rounds(12, now);
    int behind = w.rounds.size();
    for (int round = 2; round <= behind; round++) {
      readBatch(w, round);
      w.round(now);
    }

    assertThat(w.rounds).hasSize(2 * behind - 1);
    assertThat(w.filesCleaned).as("the writer's cleans deleted the slices behind the consumer as it moved on")
        .isPositive();
    assertThat(read(w, null, w.rounds.get(behind))).as("no begin: from the position, the last batch again and the next")
        .containsExactlyElementsOf(changesOf(w, behind + 1));
  }

  @Test
  void anExpiredConsumerStopsPinningAndItsNextReadIsRefusedAtLoad() throws Exception {
    Writer w = new Writer(dir);
    w.rounds(3, now);
    readBatch(w, 1);
    readBatch(w, 2);

    w.archive = false; // so that the plain read below reaches the cleaned files, not a range before the active timeline
    w.rounds(6, Clock.offset(now, Duration.ofDays(8)));

    String begin = w.rounds.get(1);
    String end = w.rounds.get(2);
    assertThatThrownBy(() -> spark.read().format("hudi").option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", begin).option("hoodie.datasource.read.end.instanttime", end)
        .load(w.path()).collectAsList())
        .as("without a consumer, as in Hudi: the files are gone").hasStackTraceContaining("FileNotFoundException");
    assertThatThrownBy(() -> read(w, begin, end)).isInstanceOf(TableException.class)
        .hasMessageContaining("consumer etl reads from " + begin)
        .hasMessageContaining("riverbed.consumer.expiration");
    assertThatThrownBy(() -> read(w, null, end)).as("from its stored position").isInstanceOf(TableException.class)
        .hasMessageContaining("consumer etl reads from " + w.rounds.get(0));
  }
}
