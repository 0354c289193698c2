package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.namesAndTs;
import static io.riverbed.format.write.WriteTestSupport.snapshot;
import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CopyOnWriteWriteTest {
  @TempDir java.nio.file.Path dir;
  Table table;
  TestWriter writer;

  @BeforeEach
  void setUp() throws Exception {
    table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    writer = new TestWriter(table, WriteOptions.defaults().withPayloadClass(PayloadMergeRule.DEFAULT.payloadClass()));
  }

  @Test
  void updateDeleteAndInsertRewriteTheBaseFileAndUnchangedRecordsKeepTheirCommitTime() throws Exception {
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-01"),
        upsert("3", "c", 1, "2024-01-01"), upsert("6", "f", 9, "2024-01-01")));
    Map<String, GenericRecord> before = snapshot(table);
    String t2 = writer.write(List.of(upsert("1", "a2", 2, "2024-01-01"), WriteRecord.delete("2", "2024-01-01", 2L),
        upsert("6", "f-stale", 3, "2024-01-01"), upsert("4", "d", 1, "2024-01-01")));

    assertThat(namesAndTs(table)).containsExactly(
        Map.entry("1", "a2@2"), Map.entry("3", "c@1"), Map.entry("4", "d@1"), Map.entry("6", "f@9"));
    Map<String, GenericRecord> after = snapshot(table);
    assertThat(after.get("1").get(MetaFields.COMMIT_TIME).toString()).isEqualTo(t2);
    assertThat(after.get("4").get(MetaFields.COMMIT_TIME).toString()).isEqualTo(t2);
    for (String unchanged : List.of("3", "6")) {
      assertThat(after.get(unchanged).get(MetaFields.COMMIT_TIME).toString()).isEqualTo(t1);
      assertThat(after.get(unchanged).get(MetaFields.COMMIT_SEQNO).toString())
          .isEqualTo(before.get(unchanged).get(MetaFields.COMMIT_SEQNO).toString());
    }

    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    WriteStat stat = CommitMetadata.fromJson(store.read(Instant.completed(t2, Action.COMMIT)), t2).writeStats().get(0);
    FileGroupId group = writer.index.get("1");
    assertThat(stat.fileId()).isEqualTo(group.fileId());
    assertThat(stat.prevCommit()).isEqualTo(t1);
    assertThat(stat.path()).isEqualTo("2024-01-01/" + FileNames.baseFileName(group.fileId(), "0-1-0", t2));
    assertThat(stat.numWrites()).isEqualTo(4);
    assertThat(stat.numUpdateWrites()).isEqualTo(1);
    assertThat(stat.numDeletes()).isEqualTo(1);
    assertThat(stat.numInserts()).isEqualTo(1);
    Path file = new Path(table.basePath(), stat.path());
    assertThat(stat.fileSizeInBytes()).isEqualTo(table.fs().getFileStatus(file).getLen());
    BaseFileReader reader = BaseFileReader.open(table.fs().getConf(), file);
    assertThat(reader.readRecordKeys()).containsExactly("1", "3", "6", "4");
    assertThat(reader.mightContain("4")).isTrue();
  }

  @Test
  void firstCommitCreatesBaseFilesNamedForTheNewFileGroup() {
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-02")));
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    CommitMetadata metadata = CommitMetadata.fromJson(store.read(Instant.completed(t1, Action.COMMIT)), t1);
    assertThat(metadata.partitionToWriteStats()).containsOnlyKeys("2024-01-01", "2024-01-02");
    assertThat(metadata.writeStats()).allSatisfy(s -> {
      assertThat(s.prevCommit()).isEqualTo(WriteStat.NULL_COMMIT);
      assertThat(s.numInserts()).isEqualTo(1);
      assertThat(s.path()).endsWith("_0-1-0_" + t1 + ".parquet");
    });
    GenericRecord one = snapshot(table).get("1");
    assertThat(one.get(MetaFields.FILE_NAME).toString()).isEqualTo(metadata.writeStats().get(0).fileName());
    assertThat(one.get(MetaFields.COMMIT_SEQNO).toString()).isEqualTo(t1 + "_0_0");
  }

  @Test
  void newKeysFillASmallFileBeforeOpeningANewFileGroup() {
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01")));
    writer.write(List.of(upsert("2", "b", 1, "2024-01-01")));
    assertThat(writer.index.get("2")).isEqualTo(writer.index.get("1"));

    var tiny = new TestWriter(table, WriteOptions.defaults().withFileSizes(4096, 0, 1024));
    tiny.write(List.of(upsert("3", "c", 1, "2024-01-01"), upsert("4", "d", 1, "2024-01-01"),
        upsert("5", "e", 1, "2024-01-01"), upsert("6", "e", 1, "2024-01-01"), upsert("7", "e", 1, "2024-01-01")));
    assertThat(tiny.index.get("3")).isEqualTo(tiny.index.get("6")).isNotEqualTo(tiny.index.get("7"));
    assertThat(namesAndTs(table)).containsOnlyKeys("1", "2", "3", "4", "5", "6", "7");
  }
}
