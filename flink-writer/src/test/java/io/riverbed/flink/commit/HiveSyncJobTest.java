package io.riverbed.flink.commit;

import static io.riverbed.flink.sink.WriterFixtures.assertTableHolds;
import static io.riverbed.flink.sink.WriterFixtures.changes;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static io.riverbed.flink.sink.WriterFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.hive.testing.MetastoreExtension;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hive_sync.enabled}: the write coordinator syncs the table to a real Hive Metastore 3.1.3
 * after its commits, so when the job ends the metastore holds the tables, every partition and the
 * last commit, as a {@code riverbed-hive-sync} run would register them.
 */
class HiveSyncJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @RegisterExtension
  static final MetastoreExtension metastore = new MetastoreExtension();

  @TempDir
  static Path dir;
  static HiveMetaStoreClient hms;

  @BeforeAll
  static void client() {
    hms = metastore.client();
  }

  @Test
  void theCoordinatorSyncsEveryCommitToTheMetastore() throws Exception {
    var stream = changes(11, 1500, 4, 0.3, 0.02, 0.0);
    var options = options(dir.resolve("mor"), "MERGE_ON_READ");
    options.put("hive_sync.enabled", "true");
    options.put("hive_sync.metastore.uris", metastore.uri());
    options.put("hive_sync.db", "flink_lake");

    write("hive-sync", stream, options, 2, 0, 0);

    var table = table(options);
    assertTableHolds(table, stream);
    String last = TimelineStore.at(table.fs(), table.metaPath()).load().commitsTimeline().completed().last().orElseThrow().time();
    assertThat(hms.getTables("flink_lake", "trips*")).containsExactlyInAnyOrder("trips_ro", "trips_rt", "trips");
    for (String name : List.of("trips_ro", "trips_rt", "trips")) {
      var t = hms.getTable("flink_lake", name);
      assertThat(t.getParameters()).as(name).containsEntry("last_commit_time_sync", last);
      assertThat(t.getPartitionKeys()).extracting(FieldSchema::getName).containsExactly("region", "country", "city");
      assertThat(hms.listPartitionNames("flink_lake", name, (short) -1)).as(name)
          .hasSize(table.listPartitions().size());
    }
    assertThat(hms.getTable("flink_lake", "trips_rt").getSd().getInputFormat())
        .isEqualTo("org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat");
  }

  @Test
  void enabledWithoutMetastoreUrisIsRefusedWhenTheJobIsBuilt() {
    var options = options(dir.resolve("no-uris"), "COPY_ON_WRITE");
    options.put("hive_sync.enabled", "true");

    assertThatThrownBy(() -> FlinkHiveSync.fromOptions(FlinkWriteOptions.fromMap(options)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hive_sync.enabled is true but hive_sync.metastore.uris is not set");
  }

  @Test
  void hiveSyncIsOffByDefault() {
    assertThat(FlinkHiveSync.fromOptions(FlinkWriteOptions.fromMap(options(dir.resolve("off"), "COPY_ON_WRITE")))).isEmpty();
  }
}
