package io.riverbed.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.sink.FaultyFileSystem;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a Kafka run with starting offsets {@code committed} looks for the table's offsets. */
class CommittedKafkaOffsetsTest {
  @TempDir Path dir;

  private static FlinkWriteOptions options(String path) {
    Map<String, String> raw = new HashMap<>(FaultyFileSystem.writerOptions());
    raw.put("path", path);
    raw.put("hoodie.table.name", "t");
    return FlinkWriteOptions.fromMap(raw);
  }

  @Test
  void theTableIsOpenedWithTheWritersHadoopOptions() {
    // faulty:// is known to Hadoop only through the hadoop.fs.faulty.impl writer option
    String path = FaultyFileSystem.uri("committed-offsets", dir.resolve("table"));
    FlinkWriteOptions options = options(path);
    assertThat(WriteJob.committedKafkaOffsets(options, "orders")).isEmpty();

    Table.create(io.riverbed.flink.sink.FlinkTables.fileSystem(options), new org.apache.hadoop.fs.Path(path),
        TableConfig.builder("t").type(TableType.MERGE_ON_READ).recordKeyFields(java.util.List.of("id")).build());
    assertThat(WriteJob.committedKafkaOffsets(options, "orders")).as("a table without commits").isEmpty();
  }
}
