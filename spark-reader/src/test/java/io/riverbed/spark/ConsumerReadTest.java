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
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TimelineTimezone;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
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
  static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .optionalString("name")
      .requiredLong("ts")
      .requiredString("dt")
      .endRecord();
  static final List<String> DAYS = List.of("2024-01-01", "2024-01-02");
  static final int KEYS = 6;
  static final CleanOptions RETAIN_TWO = CleanOptions.fromMap(Map.of(CleanOptions.COMMITS_RETAINED, "2"));
  static final ArchiveOptions KEEP_THREE_TO_FIVE = ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "3",
      ArchiveOptions.MAX_COMMITS, "5", ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"));

  final SparkSession spark = SparkTestSession.get();
  @TempDir java.nio.file.Path dir;

  /** The writer: each round upserts k0..k5 with {@code name = r<round>}; a compaction after every third. */
  static final class Writer {
    final Table table;
    final SingleTaskEngine engine;
    /** The delta commit of each round, round 1 first. */
    final List<String> rounds = new ArrayList<>();
    int filesCleaned;
    boolean archive = true;

    Writer(java.nio.file.Path dir) throws Exception {
      TableConfig config = TableConfig.builder("orders").type(TableType.MERGE_ON_READ)
          .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
          .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass()).timelineTimezone(TimelineTimezone.UTC)
          .createSchema(SCHEMA.toString()).build();
      FileSystem fs = FileSystem.getLocal(new Configuration());
      table = Table.create(fs, new Path(dir.toUri().toString(), "orders"), config);
      engine = new SingleTaskEngine(table, SCHEMA, WriteOptions.defaults());
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
      RecordKeyer keyer = RecordKeyer.forTable(table.config());
      List<WriteRecord> batch = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        GenericRecord r = new GenericData.Record(SCHEMA);
        r.put("id", "k" + k);
        r.put("name", "r" + round);
        r.put("ts", (long) round);
        r.put("dt", DAYS.get(k % 2));
        batch.add(keyer.toWriteRecord(r));
      }
      rounds.add(engine.write(WriteOperationType.UPSERT, batch, Map.of()));
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
    for (int k = 0; k < KEYS; k++) {
      out.add("k" + k + " r" + round + " " + w.rounds.get(round - 1));
    }
    return out;
  }

  String position(Writer w) {
    return ConsumerRegistry.of(w.table).get("etl").orElseThrow().position();
  }

  @Test
  void aConsumerFarBehindTheCleanerReadsEveryChangeOneCommitPerBatch() throws Exception {
    Writer w = new Writer(dir);
    Clock now = Clock.systemUTC();
    w.rounds(2, now);
    assertThat(read(w, "000", w.rounds.get(0))).containsExactlyElementsOf(changesOf(w, 1));
    assertThat(position(w)).as("the begin of the read, not its end").isEqualTo("000");

    w.rounds(12, now);
    int behind = w.rounds.size();
    for (int round = 2; round <= behind; round++) {
      assertThat(read(w, w.rounds.get(round - 2), w.rounds.get(round - 1))).as("round " + round)
          .containsExactlyElementsOf(changesOf(w, round));
      assertThat(position(w)).isEqualTo(w.rounds.get(round - 2));
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
    Clock now = Clock.systemUTC();
    w.rounds(3, now);
    assertThat(read(w, "000", w.rounds.get(0))).containsExactlyElementsOf(changesOf(w, 1));
    assertThat(read(w, w.rounds.get(0), w.rounds.get(1))).containsExactlyElementsOf(changesOf(w, 2));

    w.archive = false; // so that the plain read below fails on the cleaned files, not on archived instants
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
