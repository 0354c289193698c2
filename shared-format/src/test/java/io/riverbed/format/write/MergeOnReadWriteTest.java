package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.namesAndTs;
import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.log.AvroDataBlock;
import io.riverbed.format.log.DeleteBlock;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeOnReadWriteTest {
  @TempDir java.nio.file.Path dir;
  Table table;
  TestWriter writer;

  @BeforeEach
  void setUp() throws Exception {
    table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    writer = new TestWriter(table, WriteOptions.defaults());
  }

  @Test
  void threeDeltaCommitsMergeInsertsUpdatesAndDeletes() {
    writer.write(List.of(
        upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 5, "2024-01-01"),
        upsert("3", "c", 1, "2024-01-01"), upsert("4", "d", 1, "2024-01-02")));
    writer.write(List.of(
        upsert("1", "a2", 2, "2024-01-01"),
        upsert("1", "a-stale", 1, "2024-01-01"),
        upsert("2", "b-stale", 3, "2024-01-01"),
        WriteRecord.delete("3", "2024-01-01", 7L),
        upsert("5", "e", 1, "2024-01-02")));
    writer.write(List.of(
        upsert("1", "a3", 3, "2024-01-01"),
        WriteRecord.delete("4", "2024-01-02", null)));

    assertThat(namesAndTs(table)).containsExactly(
        Map.entry("1", "a3@3"), Map.entry("2", "b@5"), Map.entry("5", "e@1"));
  }

  @Test
  void smallerOrderingValueInALaterCommitLosesAgainstTheStoredRecord() {
    writer.write(List.of(upsert("1", "new", 10, "2024-01-01")));
    writer.write(List.of(upsert("1", "late-but-old", 4, "2024-01-01")));
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "new@10"));
  }

  @Test
  void softDeletedRecordBecomesADeleteBlockEntry() {
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-01")));
    var deleted = WriteTestSupport.order("2", "b", 2, "2024-01-01");
    deleted.put(MetaFields.IS_DELETED, true);
    WriteRecord change = RecordKeyer.forTable(table.config()).toWriteRecord(deleted);
    assertThat(change.isDelete()).isTrue();
    assertThat(change.orderingValue()).isEqualTo(2L);
    writer.write(List.of(change));
    assertThat(namesAndTs(table)).containsOnlyKeys("1");
  }

  @Test
  void eachAppendIsANewLogVersionOfTheSliceWithExactStats() throws Exception {
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "x", 1, "2024-01-01")));
    String t2 = writer.write(List.of(upsert("1", "b", 2, "2024-01-01"), WriteRecord.delete("2", "2024-01-01", 2L)));
    FileGroupId group = writer.index.get("1");
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());

    WriteStat first = commitStats(store, t1).get(0);
    assertThat(first.prevCommit()).isEqualTo(WriteStat.NULL_COMMIT);
    assertThat(first.path()).isEqualTo("2024-01-01/" + FileNames.logFileName(group.fileId(), t1, 1, "0-1-0"));
    assertThat(first.numInserts()).isEqualTo(2);
    assertThat(first.delta().logVersion()).isEqualTo(1);
    assertThat(first.delta().baseFile()).isEmpty();

    WriteStat second = commitStats(store, t2).get(0);
    assertThat(second.prevCommit()).isEqualTo(t1);
    assertThat(second.path()).isEqualTo("2024-01-01/" + FileNames.logFileName(group.fileId(), t1, 2, "0-1-0"));
    assertThat(second.numUpdateWrites()).isEqualTo(1);
    assertThat(second.numDeletes()).isEqualTo(1);
    assertThat(second.delta().logFiles()).containsExactly(
        FileNames.logFileName(group.fileId(), t1, 1, "0-1-0"), FileNames.logFileName(group.fileId(), t1, 2, "0-1-0"));
    Path file = new Path(table.basePath(), second.path());
    assertThat(second.fileSizeInBytes()).isEqualTo(table.fs().getFileStatus(file).getLen());

    List<LogBlock> blocks = new ArrayList<>();
    try (LogFileReader reader = LogFileReader.open(table.fs(), file)) {
      reader.forEachRemaining(blocks::add);
    }
    assertThat(blocks).hasSize(2);
    GenericRecord record = ((AvroDataBlock) blocks.get(0)).records(TableSchemas.addMetaFields(WriteTestSupport.SCHEMA)).get(0);
    assertThat(record.get(MetaFields.COMMIT_TIME).toString()).isEqualTo(t2);
    assertThat(record.get(MetaFields.COMMIT_SEQNO).toString()).isEqualTo(t2 + "_0_0");
    assertThat(record.get(MetaFields.RECORD_KEY).toString()).isEqualTo("1");
    assertThat(record.get(MetaFields.PARTITION_PATH).toString()).isEqualTo("2024-01-01");
    assertThat(record.get(MetaFields.FILE_NAME).toString()).isEqualTo(group.fileId());
    assertThat(((DeleteBlock) blocks.get(1)).deleteRecords()).singleElement()
        .satisfies(d -> assertThat(d.orderingValue()).isEqualTo(2L));
    assertThat(table.fs().exists(new Path(table.basePath(), "2024-01-01/.hoodie_partition_metadata"))).isTrue();
    assertThat(Markers.of(table.fs(), table.metaPath(), t2).list()).isEmpty();
  }

  @Test
  void appendGoesToTheSliceAPendingCompactionOpened() {
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    FileGroupId group = writer.index.get("1");
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    String compaction = InstantClock.next(InstantClock.forTable(table), WriteTestSupport.timeline(table));
    store.createRequested(compaction, Action.COMPACTION, io.riverbed.format.timeline.CompactionPlan.of(List.of(
        io.riverbed.format.timeline.CompactionOperation.of(group.partitionPath(), group.fileId(), t1,
            null, List.of(FileNames.logFileName(group.fileId(), t1, 1, "0-1-0"))))).toBytes());
    String t2 = writer.write(List.of(upsert("1", "b", 2, "2024-01-01")));
    WriteStat stat = commitStats(store, t2).get(0);
    assertThat(stat.path()).isEqualTo("2024-01-01/" + FileNames.logFileName(group.fileId(), compaction, 1, "0-1-0"));
    assertThat(stat.prevCommit()).isEqualTo(compaction);
    assertThat(t2).isGreaterThan(compaction);
    assertThat(namesAndTs(table)).containsExactly(Map.entry("1", "b@2"));
  }

  static List<WriteStat> commitStats(TimelineStore store, String time) {
    Instant done = Instant.completed(time, Action.DELTA_COMMIT);
    return CommitMetadata.fromJson(store.read(done), time).writeStats();
  }
}
