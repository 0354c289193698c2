package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** New keys into the task's small file groups first, then into new groups of max / estimate records. */
class FileGroupPackerTest {
  static final String DT = "2024-01-01";

  @TempDir java.nio.file.Path dir;

  private static List<String> assign(FileGroupPacker packer, int keys) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      out.add(packer.assign(DT));
    }
    return out;
  }

  /** A table with one committed file group holding one key; returns its latest slice. */
  private FileSlice oneSmallGroup(Table table) {
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    writer.write(List.of(upsert("1", "a", 1, DT)));
    FileGroupId id = writer.index.get("1");
    return FileSystemViewLoader.load(table, WriteTestSupport.timeline(table)).latestSliceForWrite(id).orElseThrow();
  }

  private static long size(FileSlice slice) {
    return slice.baseFile().map(b -> b.length()).orElse(0L) + slice.logFiles().stream().mapToLong(l -> l.length()).sum();
  }

  /** Room for exactly two more records in {@code slice}, which counts as small. */
  private static WriteOptions roomForTwo(FileSlice slice) {
    long size = size(slice);
    return WriteOptions.defaults().withFileSizes(size + 2 * 1024, size + 1, 1024);
  }

  @Test
  void withoutATableNewKeysFillNewGroupsOfMaxFileSizeOverRecordEstimate() {
    FileGroupPacker packer = FileGroupPacker.of(() -> null, WriteOptions.defaults().withFileSizes(3 * 1024, 1024, 1024), 0, 1);
    List<String> ids = assign(packer, 7);
    assertThat(ids.subList(0, 3)).containsOnly(ids.get(0));
    assertThat(ids.subList(3, 6)).containsOnly(ids.get(3));
    assertThat(ids.get(6)).isNotIn(ids.get(0), ids.get(3));
  }

  @Test
  void copyOnWriteTopsUpASmallBaseFileThenOpensANewGroup() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    FileSlice small = oneSmallGroup(table);
    List<String> ids = assign(FileGroupPacker.of(() -> table, roomForTwo(small), 0, 1), 3);
    assertThat(ids.subList(0, 2)).containsOnly(small.fileGroupId().fileId());
    assertThat(ids.get(2)).isNotEqualTo(small.fileGroupId().fileId());
  }

  @Test
  void mergeOnReadCountsALogOnlyGroupButABulkInsertOnlyGroupsWithABaseFile() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    FileSlice small = oneSmallGroup(table);
    assertThat(small.baseFile()).isEmpty();
    assertThat(assign(FileGroupPacker.of(() -> table, roomForTwo(small), 0, 1), 1))
        .containsExactly(small.fileGroupId().fileId());
    assertThat(assign(FileGroupPacker.ofBaseFiles(() -> table, roomForTwo(small), 0, 1), 1))
        .doesNotContain(small.fileGroupId().fileId());
  }

  @Test
  void smallestBaseFilesTopsUpOnlyTheSmallestCandidatesOfAPartitionAndRecordsWhichGroupsTookKeys() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    FileSlice smaller = oneSmallGroup(table);
    TestWriter separate = new TestWriter(table, WriteOptions.defaults().withFileSizes(120L << 20, 0, 1024));
    separate.write(List.of(upsert("2", "b", 1, DT), upsert("3", "c", 1, DT), upsert("4", "d", 1, DT)));
    String larger = separate.index.get("2").fileId();
    String smallest = smaller.fileGroupId().fileId();
    WriteOptions bothSmall = WriteOptions.defaults().withFileSizes(1L << 20, 1L << 19, 1024);

    assertThat(assign(FileGroupPacker.ofBaseFiles(() -> table, bothSmall, 0, 1), 1100)).contains(smallest, larger);
    FileGroupPacker one = FileGroupPacker.ofSmallestBaseFiles(() -> table, bothSmall, 0, 1, 1);
    List<String> ids = assign(one, 1100);
    assertThat(ids).contains(smallest).doesNotContain(larger);
    assertThat(ids.get(0)).isEqualTo(smallest);
    assertThat(one.tookNewKeys(new FileGroupId(DT, smallest))).isTrue();
    assertThat(one.tookNewKeys(new FileGroupId(DT, larger))).isFalse();
    assertThat(one.tookNewKeys(new FileGroupId(DT, ids.get(ids.size() - 1)))).isTrue();
    assertThat(assign(FileGroupPacker.ofSmallestBaseFiles(() -> table, bothSmall, 0, 1, 0), 1)).doesNotContain(smallest, larger);
  }

  @Test
  void onlyTheTaskOwningASmallGroupByFileIdHashTopsItUp() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    FileSlice small = oneSmallGroup(table);
    String fileId = small.fileGroupId().fileId();
    int owner = Math.floorMod(fileId.hashCode(), 2);
    assertThat(assign(FileGroupPacker.of(() -> table, roomForTwo(small), owner, 2), 1)).containsExactly(fileId);
    assertThat(assign(FileGroupPacker.of(() -> table, roomForTwo(small), 1 - owner, 2), 1)).doesNotContain(fileId);
  }

  @Test
  void aSmallFileLimitOfZeroNeverTopsUp() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    FileSlice small = oneSmallGroup(table);
    WriteOptions options = roomForTwo(small).withFileSizes(size(small) + 2 * 1024, 0, 1024);
    assertThat(assign(FileGroupPacker.of(() -> table, options, 0, 1), 1)).doesNotContain(small.fileGroupId().fileId());
  }

  @Test
  void aTaskOutsideTheParallelismIsRejected() {
    assertThatThrownBy(() -> FileGroupPacker.of(() -> null, WriteOptions.defaults(), 2, 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("task 2 of 2");
  }
}
