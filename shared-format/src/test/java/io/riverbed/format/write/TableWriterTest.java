package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.namesAndTs;
import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileNames;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-task writer, driven as an engine does: routed rows in, one instant per prepareCommit. */
class TableWriterTest {
  static final String DT = "2024-01-01";
  static final String FILE_ID = "3f1c2a9e-0000-4000-8000-000000000001-0";

  @TempDir java.nio.file.Path dir;

  private Table table;
  private final AtomicInteger instantsAsked = new AtomicInteger();

  private TableWriter.Builder<WriteRecord> builder(TableType type) throws IOException {
    if (table == null) {
      table = WriteTestSupport.createTable(dir, type);
    }
    return TableWriter.builder(table, WriteTestSupport.SCHEMA, WriteOptions.defaults());
  }

  /** One instant: {@code rows}, each sized {@code bytes}, written to {@code fileGroup}, then committed. */
  private List<WriteStat> commit(TableWriter.Builder<WriteRecord> builder, long bytes, String fileGroup,
      WriteRecord... rows) {
    WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.UPSERT);
    TableWriter<WriteRecord> writer = builder.build(() -> {
      instantsAsked.incrementAndGet();
      return tx.instantTime();
    }, (r, p) -> r);
    for (WriteRecord r : rows) {
      writer.write(r.partitionPath(), fileGroup, r, bytes);
    }
    List<WriteStat> stats = writer.prepareCommit().writeStats();
    tx.addWriteStats(stats);
    tx.commit(WriteTestSupport.SCHEMA, Map.of());
    return stats;
  }

  private TreeSet<String> files() throws IOException {
    TreeSet<String> names = new TreeSet<>();
    for (FileStatus st : table.fs().listStatus(new Path(table.basePath(), DT))) {
      String name = st.getPath().getName();
      if (!name.startsWith(".hoodie_partition_metadata") && !name.endsWith(".crc")) {
        names.add(name);
      }
    }
    return names;
  }

  @Test
  void aMergeOnReadGroupKeepsTheFileKindItsFirstFlushOfTheInstantChose() throws Exception {
    var baseChosen = new java.util.concurrent.atomic.AtomicBoolean();
    var builder = builder(TableType.MERGE_ON_READ).bufferLimitBytes(1).baseFilesFor(group -> baseChosen.get());
    WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.UPSERT);
    TableWriter<WriteRecord> writer = builder.build(tx::instantTime, (r, p) -> r);
    writer.write(DT, FILE_ID, upsert("1", "a", 1, DT), 1);
    writer.write(DT, FILE_ID, upsert("2", "b", 1, DT), 1);
    baseChosen.set(true);
    writer.write(DT, FILE_ID, upsert("3", "c", 1, DT), 1);
    List<WriteStat> stats = writer.prepareCommit().writeStats();
    assertThat(stats).extracting(WriteStat::fileName).allMatch(FileNames::isLogFile).hasSize(3);
    tx.addWriteStats(stats);
    tx.commit(WriteTestSupport.SCHEMA, Map.of());
    assertThat(namesAndTs(table)).containsOnlyKeys("1", "2", "3");

    List<WriteStat> next = commit(builder, 0, "3f1c2a9e-0000-4000-8000-000000000002-0", upsert("4", "d", 1, DT));
    assertThat(next).extracting(WriteStat::fileName).allMatch(FileNames::isBaseFile);
  }

  @Test
  void mergeOnReadAppendsEachFlushAsANewLogVersionOfTheLatestSlice() throws Exception {
    var builder = builder(TableType.MERGE_ON_READ).bufferLimitBytes(1);
    List<WriteStat> first = commit(builder, 1, FILE_ID, upsert("1", "a", 1, DT), upsert("2", "b", 1, DT));
    String base = first.get(0).path().substring(first.get(0).path().indexOf('_') + 1, first.get(0).path().indexOf(".log"));
    assertThat(first).extracting(WriteStat::fileName).containsExactly(
        FileNames.logFileName(FILE_ID, base, 1, "0-1-0"), FileNames.logFileName(FILE_ID, base, 2, "0-1-0"));
    assertThat(first.get(0).numInserts()).isEqualTo(1);

    List<WriteStat> second = commit(builder(TableType.MERGE_ON_READ), 0, FILE_ID,
        upsert("1", "a2", 2, DT), WriteRecord.delete("2", DT, 5L));
    assertThat(second).singleElement().satisfies(s -> {
      assertThat(s.fileName()).isEqualTo(FileNames.logFileName(FILE_ID, base, 3, "0-1-0"));
      assertThat(s.prevCommit()).isEqualTo(base);
      assertThat(s.numUpdateWrites()).isEqualTo(1);
      assertThat(s.numDeletes()).isEqualTo(1);
    });
    assertThat(files()).noneMatch(n -> n.endsWith(".parquet"));
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a2@2"));
  }

  @Test
  void copyOnWriteCreatesThenMergesAndRollsWithinAnInstantToOneFile() throws Exception {
    var builder = builder(TableType.COPY_ON_WRITE).bufferLimitBytes(1);
    List<WriteStat> first = commit(builder, 1, FILE_ID, upsert("1", "a", 1, DT), upsert("2", "b", 1, DT),
        upsert("3", "c", 1, DT));
    assertThat(first).singleElement().satisfies(s -> {
      assertThat(s.fileName()).startsWith(FILE_ID + "_0-1-2_");
      assertThat(s.prevCommit()).isEqualTo(WriteStat.NULL_COMMIT);
      assertThat(s.numInserts()).isEqualTo(3);
    });
    assertThat(files()).containsExactly(first.get(0).fileName());

    List<WriteStat> second = commit(builder(TableType.COPY_ON_WRITE), 0, FILE_ID, upsert("1", "a2", 2, DT),
        WriteRecord.delete("3", DT, 5L), upsert("4", "d", 1, DT));
    assertThat(second).singleElement().satisfies(s -> {
      assertThat(s.fileName()).startsWith(FILE_ID + "_0-1-0_");
      assertThat(s.prevCommit()).isNotEqualTo(WriteStat.NULL_COMMIT);
      assertThat(s.numUpdateWrites()).isEqualTo(1);
      assertThat(s.numInserts()).isEqualTo(1);
      assertThat(s.numDeletes()).isEqualTo(1);
    });
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a2@2"), Map.entry("2", "b@1"), Map.entry("4", "d@1"));
  }

  @Test
  void baseFilesWriterCreatesBaseFilesInAMergeOnReadTable() throws Exception {
    List<WriteStat> stats = commit(builder(TableType.MERGE_ON_READ).baseFiles(), 0, FILE_ID, upsert("1", "a", 1, DT));
    assertThat(stats).singleElement().satisfies(s -> assertThat(s.fileName()).endsWith(".parquet"));
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "a@1"));
  }

  @Test
  void bucketRoutingNamesANewGroupByItsBucketAndKeepsItsFileIdAfterwards() throws Exception {
    var builder = builder(TableType.MERGE_ON_READ).routing(TableWriter.Routing.BUCKET);
    String fileId = commit(builder, 0, "3", upsert("1", "a", 1, DT)).get(0).fileId();
    assertThat(BucketIndex.bucketOf(fileId)).isEqualTo(3);
    var again = builder(TableType.MERGE_ON_READ).routing(TableWriter.Routing.BUCKET);
    assertThat(commit(again, 0, "3", upsert("2", "b", 1, DT))).extracting(WriteStat::fileId).containsExactly(fileId);
  }

  @Test
  void theInstantIsAskedOnTheFirstFileOfARoundAndAnEmptyRoundWritesNothing() throws Exception {
    TableWriter<WriteRecord> writer = builder(TableType.MERGE_ON_READ).build(() -> {
      instantsAsked.incrementAndGet();
      return "20240101000000000";
    }, (r, p) -> r);
    assertThat(writer.prepareCommit()).isEqualTo(new TableWriter.Prepared(List.of(), 0));
    writer.write(DT, FILE_ID, upsert("1", "a", 1, DT), 10);
    assertThat(instantsAsked).hasValue(0);
    assertThat(writer.prepareCommit().writeStats()).hasSize(1);
    assertThat(instantsAsked).hasValue(1);
  }

  @Test
  void afterFileWrittenRunsOncePerDataFile() throws Exception {
    AtomicInteger files = new AtomicInteger();
    var builder = builder(TableType.MERGE_ON_READ).bufferLimitBytes(1).afterFileWritten(files::incrementAndGet);
    commit(builder, 1, FILE_ID, upsert("1", "a", 1, DT), upsert("2", "b", 1, DT));
    assertThat(files).hasValue(2);
  }

  /** The buffers alone: which groups are written when, with what. */
  @Test
  void buffersStayWithinTheirBoundByFlushingTheLargestGroupFirst() {
    List<String> flushed = new ArrayList<>();
    FileGroupBuffers<String> buffers = new FileGroupBuffers<>(100,
        (p, g, rows) -> flushed.add(g + "=" + String.join(",", rows)));
    buffers.add(DT, "a", "a1", 40);
    buffers.add(DT, "b", "b1", 30);
    buffers.add(DT, "a", "a2", 20);
    assertThat(flushed).isEmpty();
    buffers.add(DT, "b", "b2", 20);
    assertThat(flushed).containsExactly("a=a1,a2");
    assertThat(buffers.bufferedBytes()).isEqualTo(50);
    assertThat(buffers.maxBufferedBytes()).isEqualTo(90);
    buffers.flushAll();
    assertThat(flushed).containsExactly("a=a1,a2", "b=b1,b2");
    assertThat(buffers.bufferedBytes()).isZero();
  }

  @Test
  void aRowLargerThanTheBoundIsWrittenAtOnceAfterTheRowsOfItsGroupBufferedBeforeIt() {
    List<String> flushed = new ArrayList<>();
    FileGroupBuffers<String> buffers = new FileGroupBuffers<>(100,
        (p, g, rows) -> flushed.add(g + "=" + String.join(",", rows)));
    buffers.add(DT, "a", "a1", 10);
    buffers.add(DT, "b", "b1", 10);
    buffers.add(DT, "a", "huge", 500);
    buffers.add(DT, "c", "huge", 500);
    assertThat(flushed).containsExactly("a=a1,huge", "c=huge");
    assertThat(buffers.bufferedBytes()).isEqualTo(10);
    buffers.flushAll();
    assertThat(flushed).last().isEqualTo("b=b1");
    assertThat(Arrays.asList(buffers.bufferedBytes(), buffers.maxBufferedBytes())).containsExactly(0L, 20L);
  }
}
