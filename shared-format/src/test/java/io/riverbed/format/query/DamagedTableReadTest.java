package io.riverbed.format.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.riverbed.format.CorruptLogBlockException;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Optional;

import io.riverbed.format.log.AvroDataBlock;
import io.riverbed.format.log.LogFileWriter;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommittedLogWrites;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.TimelineStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Hudi-written table damaged the ways crashes damage tables: reads return the committed rows exactly. */
class DamagedTableReadTest {
  @TempDir java.nio.file.Path dir;
  java.nio.file.Path copy;
  FileSystem fs;

  @BeforeEach
  void copyTable() throws Exception {
    java.nio.file.Path source = java.nio.file.Path.of(getClass().getResource("/hudi-0.15/mor_small").toURI());
    copy = dir.resolve("mor_small");
    try (Stream<java.nio.file.Path> files = Files.walk(source)) {
      for (java.nio.file.Path p : files.sorted(Comparator.naturalOrder()).toList()) {
        java.nio.file.Path target = copy.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    Files.createDirectories(copy.resolve(".hoodie/.temp"));
    fs = FileSystem.getLocal(new Configuration()).getRaw();
  }

  Table table() {
    return Table.open(fs, new Path(copy.toUri()));
  }

  static List<String> expectedSnapshot() throws Exception {
    java.nio.file.Path p = java.nio.file.Path.of(DamagedTableReadTest.class.getResource("/hudi-0.15/expected/mor_small/snapshot.jsonl").toURI());
    return Files.readAllLines(p, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).sorted().toList();
  }

  /** The newest log file of the first partition's file group. */
  java.nio.file.Path newestLog() throws Exception {
    try (Stream<java.nio.file.Path> files = Files.list(copy.resolve("asia/india/chennai"))) {
      return files.filter(p -> p.getFileName().toString().contains(".log.")).max(Comparator.comparing(p -> p.getFileName().toString())).orElseThrow();
    }
  }

  @Test
  void truncatedLastLogBlockIsIgnored() throws Exception {
    java.nio.file.Path log = newestLog();
    byte[] dataLog = Files.readAllBytes(copy.resolve("asia/india/chennai").resolve(log.getFileName().toString().replace(".log.4_1-0-1", ".log.1_1-21-47")));
    byte[] original = Files.readAllBytes(log);
    byte[] damaged = new byte[original.length + dataLog.length / 2];
    System.arraycopy(original, 0, damaged, 0, original.length);
    System.arraycopy(dataLog, 0, damaged, original.length, dataLog.length / 2);
    Files.write(log, damaged);

    assertThat(TableReads.lines(table(), QuerySpec.snapshot())).containsExactlyElementsOf(expectedSnapshot());
  }

  @Test
  void leftoverInflightInstantAndItsLogBlocksAreInvisible() throws Exception {
    Table table = table();
    TimelineStore store = TimelineStore.at(fs, table.metaPath());
    String crashed = "20261129150000000";
    store.transitionToInflight(store.createRequested(crashed, Action.DELTA_COMMIT, new byte[0]), new byte[0]);
    Schema schema = QueryPlanner.plan(table, QuerySpec.snapshot()).schema().orElseThrow();
    GenericRecord record = new GenericData.Record((GenericData.Record) TableReads.read(table, QuerySpec.snapshot()).get(0), true);
    record.put("_hoodie_commit_time", crashed);
    record.put("_hoodie_record_key", "uncommitted-key");
    record.put("_hoodie_partition_path", "asia/india/chennai");
    record.put("uuid", "uncommitted-key");
    String name = newestLog().getFileName().toString().replace(".log.4_1-0-1", ".log.5_0-1-0");
    LogFileWriter writer = LogFileWriter.create(fs, new Path(copy.resolve("asia/india/chennai").resolve(name).toUri()));
    try {
      writer.append(AvroDataBlock.of(crashed, schema, List.of(record)));
      writer.close();
    } finally {
      writer.abort();
    }

    String later = "20261129150000001";
    store.complete(store.transitionToInflight(store.createRequested(later, Action.DELTA_COMMIT, new byte[0]), new byte[0]),
        CommitMetadata.builder(WriteOperationType.UPSERT).schema(TableSchemas.removeMetaFields(schema).toString()).build().toJsonBytes());

    QueryPlan plan = QueryPlanner.plan(table, QuerySpec.snapshot());
    assertThat(plan.queryInstant()).contains(later);
    assertThat(TableReads.lines(table, QuerySpec.snapshot())).containsExactlyElementsOf(expectedSnapshot());
    assertThat(TableReads.lines(table, QuerySpec.readOptimized())).hasSize(8);
  }

  // ---- lost committed data versus torn uncommitted tails ----------------------------------------

  static final String CHENNAI = "asia/india/chennai";
  static final String CHENNAI_FILE_ID = "9485e3af-2943-4d0a-a28a-ebff67078cef-0";
  /** The upsert (step 2) that wrote {@code .log.1_1-21-47} of the Chennai file group, 1782 bytes. */
  static final String UPSERT = "20261129140351987";

  java.nio.file.Path chennaiLog(String versionAndToken) {
    return copy.resolve(CHENNAI).resolve("." + CHENNAI_FILE_ID + "_20261129140349527.log." + versionAndToken);
  }

  void truncate(java.nio.file.Path file, int length) throws Exception {
    Files.write(file, Arrays.copyOf(Files.readAllBytes(file), length));
  }

  /** The rows of the splits outside the Chennai file group. */
  List<String> rowsOutsideChennai(Table table) {
    QueryPlan plan = QueryPlanner.plan(table, QuerySpec.snapshot());
    SplitReader reader = SplitReader.of(plan, ReadSettings.defaults());
    List<GenericRecord> rows = new ArrayList<>();
    for (Split split : plan.splits()) {
      if (!split.slice().fileGroupId().fileId().equals(CHENNAI_FILE_ID)) {
        try (CloseableIterator<GenericRecord> it = reader.read(split, Optional.empty())) {
          it.forEachRemaining(rows::add);
        }
      }
    }
    return io.riverbed.format.testing.AvroRows.lines(rows);
  }

  @Test
  void committedLogFileTruncatedInTheMiddleFailsTheSnapshotReadNamingFileOffsetAndInstant() throws Exception {
    java.nio.file.Path log = chennaiLog("1_1-21-47");
    truncate(log, 900);

    CorruptLogBlockException e = catchThrowableOfType(() -> TableReads.read(table(), QuerySpec.snapshot()),
        CorruptLogBlockException.class);

    assertThat(e).isNotNull();
    assertThat(e.logFile()).endsWith(log.getFileName().toString());
    assertThat(e.offset()).isZero();
    assertThat(e.instants()).containsExactly(UPSERT);
    assertThat(e.fileGroup()).isEqualTo(CHENNAI + "/" + CHENNAI_FILE_ID);
    assertThat(e.table()).contains("mor_small");
    assertThat(e.getMessage()).contains(log.getFileName().toString(), "byte offset 0", UPSERT, CHENNAI_FILE_ID);
  }

  @Test
  void committedLogFileWithAFlippedByteFailsTheRead() throws Exception {
    java.nio.file.Path log = chennaiLog("2_1-48-84");
    byte[] bytes = Files.readAllBytes(log);
    bytes[bytes.length - 3] ^= 0x5a; // the block's trailing length
    Files.write(log, bytes);

    assertThatThrownBy(() -> TableReads.read(table(), QuerySpec.snapshot()))
        .isInstanceOf(CorruptLogBlockException.class)
        .hasMessageContaining(log.getFileName().toString())
        .hasMessageContaining("20261129140355136");
  }

  @Test
  void committedLogFileCutAtABlockBoundaryFailsTheRead() throws Exception {
    java.nio.file.Path log = chennaiLog("1_1-21-47");
    truncate(log, 0);

    assertThatThrownBy(() -> TableReads.read(table(), QuerySpec.snapshot()))
        .isInstanceOf(CorruptLogBlockException.class)
        .hasMessageContaining("is 0 bytes long but was committed up to byte 1782")
        .hasMessageContaining(UPSERT);
  }

  @Test
  void compactionOfADamagedFileGroupFailsCommitsNothingAndTheTableStillFailsTheSameWay() throws Exception {
    List<String> outsideBefore = rowsOutsideChennai(table());
    java.nio.file.Path log = chennaiLog("1_1-21-47");
    truncate(log, 900);
    Table table = table();
    String compaction = CompactionScheduler.of(table).options(
        io.riverbed.format.write.CompactionOptions.defaults().withThresholds(1, 0)).execute().instantTime().orElseThrow();

    CorruptLogBlockException e = catchThrowableOfType(() -> CompactionRunner.of(table, compaction).execute(),
        CorruptLogBlockException.class);

    assertThat(e).isNotNull();
    assertThat(e.logFile()).endsWith(log.getFileName().toString());
    assertThat(e.instants()).containsExactly(UPSERT);
    assertThat(TimelineStore.at(fs, table.metaPath()).load().instants())
        .noneMatch(i -> i.time().equals(compaction) && i.isCompleted());
    try (Stream<java.nio.file.Path> files = Files.list(copy.resolve(CHENNAI))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith(CHENNAI_FILE_ID) && n.endsWith("_" + compaction + ".parquet"));
    }
    CorruptLogBlockException after = catchThrowableOfType(() -> TableReads.read(table(), QuerySpec.snapshot()),
        CorruptLogBlockException.class);
    assertThat(after).isNotNull();
    assertThat(after.logFile()).isEqualTo(e.logFile());
    assertThat(after.offset()).isEqualTo(e.offset());
    assertThat(rowsOutsideChennai(table())).isEqualTo(outsideBefore).isNotEmpty();
  }

  @Test
  void tornTailAppendedAfterTheCommittedLengthOfACommittedLogIsSkipped() throws Exception {
    java.nio.file.Path log = chennaiLog("2_1-48-84");
    byte[] committed = Files.readAllBytes(log);
    byte[] otherBlock = Files.readAllBytes(chennaiLog("1_1-21-47"));
    byte[] torn = Arrays.copyOf(committed, committed.length + otherBlock.length / 2);
    System.arraycopy(otherBlock, 0, torn, committed.length, otherBlock.length / 2);
    Files.write(log, torn);

    assertThat(TableReads.lines(table(), QuerySpec.snapshot())).containsExactlyElementsOf(expectedSnapshot());
  }

  @Test
  void tornLogFileOfAnUncommittedWriteIsSkipped() throws Exception {
    Table table = table();
    TimelineStore store = TimelineStore.at(fs, table.metaPath());
    String crashed = "20261129150000000";
    store.transitionToInflight(store.createRequested(crashed, Action.DELTA_COMMIT, new byte[0]), new byte[0]);
    java.nio.file.Path torn = chennaiLog("5_0-1-0");
    byte[] block = Files.readAllBytes(chennaiLog("1_1-21-47"));
    Files.write(torn, Arrays.copyOf(block, block.length / 2));

    assertThat(TableReads.lines(table, QuerySpec.snapshot())).containsExactlyElementsOf(expectedSnapshot());
  }

  // ---- committed writes read once for a query ---------------------------------------------------

  @Test
  void committedWritesReadOnceForTheQueryAndShippedStillFailTheReadOfADamagedLog() throws Exception {
    java.nio.file.Path log = chennaiLog("1_1-21-47");
    truncate(log, 900);
    QueryPlan plan = QueryPlanner.plan(table(), QuerySpec.snapshot());
    CommittedLogWrites shipped = roundTrip(SplitReader.committedWritesFor(plan, plan.splits()));
    SplitReader reader = SplitReader.of(plan, ReadSettings.defaults(), shipped);
    Split chennai = plan.splits().stream()
        .filter(s -> s.slice().fileGroupId().fileId().equals(CHENNAI_FILE_ID)).findFirst().orElseThrow();

    CorruptLogBlockException e = catchThrowableOfType(() -> {
      try (CloseableIterator<GenericRecord> it = reader.read(chennai, Optional.empty())) {
        it.forEachRemaining(r -> { });
      }
    }, CorruptLogBlockException.class);

    assertThat(e).isNotNull();
    assertThat(e.logFile()).endsWith(log.getFileName().toString());
    assertThat(e.instants()).containsExactly(UPSERT);
  }

  @Test
  void committedWritesForSplitsHoldOnlyTheirLogFilesAndTheInstantsFromTheirBaseInstantOn() throws Exception {
    Table table = table();
    QueryPlan plan = QueryPlanner.plan(table, QuerySpec.snapshot());
    Path chennaiLog = new Path(chennaiLog("1_1-21-47").toUri());
    List<Split> chennai = plan.splits().stream()
        .filter(s -> s.slice().fileGroupId().fileId().equals(CHENNAI_FILE_ID)).toList();
    List<Split> others = plan.splits().stream().filter(s -> !chennai.contains(s)).toList();

    assertThat(SplitReader.committedWritesFor(plan, chennai).of(chennaiLog))
        .extracting(CommittedLogWrites.Write::instant).containsExactly(UPSERT);
    assertThat(SplitReader.committedWritesFor(plan, others).of(chennaiLog)).isEmpty();
    TimelineStore store = table.timelineStore();
    assertThat(CommittedLogWrites.loadSince(store, plan.activeTimeline(), table.basePath(), "20261129140355136")
        .of(chennaiLog)).isEmpty();
    assertThat(CommittedLogWrites.loadSince(store, plan.activeTimeline(), table.basePath(), UPSERT)
        .of(chennaiLog)).extracting(CommittedLogWrites.Write::instant).containsExactly(UPSERT);
  }

  private static CommittedLogWrites roundTrip(CommittedLogWrites writes) throws Exception {
    var bytes = new java.io.ByteArrayOutputStream();
    try (var out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(writes);
    }
    try (var in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      return (CommittedLogWrites) in.readObject();
    }
  }
}
