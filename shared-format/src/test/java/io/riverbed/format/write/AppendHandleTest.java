package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendHandleTest {
  static final String BASE = "20240101000000000";
  static final String OTHER = "20240101000000001";
  static final String MINE = "20240101000000002";
  @TempDir java.nio.file.Path dir;

  /**
   * Two writers append to one slice with the same write token (a Flink task and a Spark task, each
   * task 0 of 1, attempt 0): the other writer creates the version this one listed as next between
   * its listing and its create. This one takes the version after, and the other's file stays its own.
   */
  @Test
  void aLogVersionAnotherWriterCreatesAfterTheListingIsSkippedNotFailedOrOverwritten() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    FileGroupId group = new FileGroupId("2024-01-01", "g1");
    FileSlice slice = new FileSlice(group, BASE, Optional.empty(), List.of());
    AppendHandle.of(WriteTaskContext.single(table, BASE, WriteTestSupport.SCHEMA), group, Optional.empty())
        .append(List.of(upsert("1", "a", 1, "2024-01-01"))).orElseThrow();
    Runnable otherWriter = () -> AppendHandle.of(WriteTaskContext.single(table, OTHER, WriteTestSupport.SCHEMA), group,
        Optional.of(slice)).append(List.of(upsert("2", "other", 2, "2024-01-01"))).orElseThrow();
    Table racing = Table.open(new OtherWriterAfterListing(FileSystem.getLocal(new Configuration()), otherWriter),
        table.basePath());

    WriteStat mine = AppendHandle.of(WriteTaskContext.single(racing, MINE, WriteTestSupport.SCHEMA), group,
        Optional.of(slice)).append(List.of(upsert("3", "mine", 3, "2024-01-01"))).orElseThrow();

    String token = FileNames.writeToken(0, 1, 0);
    assertThat(mine.fileName()).isEqualTo(FileNames.logFileName("g1", BASE, 3, token));
    assertThat(mine.delta().logVersion()).isEqualTo(3);
    Path partition = table.partitionPath("2024-01-01");
    assertThat(blockInstants(table, new Path(partition, FileNames.logFileName("g1", BASE, 2, token))))
        .containsExactly(OTHER);
    assertThat(blockInstants(table, new Path(partition, mine.fileName()))).containsExactly(MINE);
  }

  private static List<String> blockInstants(Table table, Path log) {
    List<String> out = new ArrayList<>();
    try (LogFileReader reader = LogFileReader.open(table.fs(), log)) {
      while (reader.hasNext()) {
        LogBlock block = reader.next();
        out.add(block.instantTime());
      }
    }
    return out;
  }

  /** The local file system, where another writer runs right after the first listing of a folder. */
  private static final class OtherWriterAfterListing extends FilterFileSystem {
    private Runnable otherWriter;

    OtherWriterAfterListing(FileSystem local, Runnable otherWriter) {
      super(local);
      this.otherWriter = otherWriter;
    }

    @Override
    public FileStatus[] listStatus(Path folder) throws IOException {
      FileStatus[] listed = super.listStatus(folder);
      if (otherWriter != null && folder.getName().equals("2024-01-01")) {
        Runnable run = otherWriter;
        otherWriter = null;
        run.run();
      }
      return listed;
    }
  }
}
