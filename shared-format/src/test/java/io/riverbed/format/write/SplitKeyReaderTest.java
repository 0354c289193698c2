package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitKeyReader;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keys {@link SplitKeyReader} reports are the keys a snapshot read returns, slice by slice. */
class SplitKeyReaderTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void mergeOnReadKeysAreTheSnapshotKeysWithoutDeletedOnes() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    var writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 5, "2024-01-01"),
        upsert("3", "c", 1, "2024-01-01"), upsert("4", "d", 1, "2024-01-02"), upsert("6", "f", 1, "2024-01-02")));
    var softDeleted = WriteTestSupport.order("6", "f", 2, "2024-01-02");
    softDeleted.put(MetaFields.IS_DELETED, true);
    writer.write(List.of(upsert("1", "a2", 2, "2024-01-01"), WriteRecord.delete("3", "2024-01-01", 7L),
        upsert("5", "e", 1, "2024-01-02"), RecordKeyer.forTable(table.config()).toWriteRecord(softDeleted)));
    writer.write(List.of(WriteRecord.delete("4", "2024-01-02", null)));

    assertThat(keysBySlice(table)).containsExactlyInAnyOrderElementsOf(snapshotKeysBySlice(table))
        .containsExactlyInAnyOrder(group(writer, "1") + ":1", group(writer, "2") + ":2", group(writer, "5") + ":5");
  }

  @Test
  void copyOnWriteKeysAreTheBaseFileKeys() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    var writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-01"),
        upsert("3", "c", 1, "2024-01-02")));
    writer.write(List.of(WriteRecord.delete("2", "2024-01-01", 2L), upsert("4", "d", 1, "2024-01-02")));

    assertThat(keysBySlice(table)).containsExactlyInAnyOrderElementsOf(snapshotKeysBySlice(table)).hasSize(3);
  }

  private static String group(TestWriter writer, String key) {
    FileGroupId id = writer.index.get(key);
    return id.partitionPath() + "/" + id.fileId();
  }

  /** "partition/fileId:key" per key the key reader reports. */
  private static List<String> keysBySlice(Table table) {
    var plan = QueryPlanner.plan(table.reload(), QuerySpec.snapshot());
    var reader = SplitKeyReader.of(plan, ReadSettings.defaults());
    List<String> out = new ArrayList<>();
    for (var split : plan.splits()) {
      String group = split.slice().partitionPath() + "/" + split.slice().fileId();
      long n = reader.forEachKey(split, key -> out.add(group + ":" + key));
      assertThat(n).isNotNegative();
    }
    return out;
  }

  /** "partition/fileId:key" per row of a snapshot read. */
  private static List<String> snapshotKeysBySlice(Table table) {
    List<String> out = new ArrayList<>();
    for (var r : io.riverbed.format.testing.TableReads.read(table.reload(), QuerySpec.snapshot())) {
      String fileName = r.get(MetaFields.FILE_NAME).toString();
      String fileId = fileName.contains("_") ? fileName.substring(0, fileName.indexOf('_')) : fileName;
      out.add(r.get(MetaFields.PARTITION_PATH) + "/" + fileId + ":" + r.get(MetaFields.RECORD_KEY));
    }
    return out;
  }
}
