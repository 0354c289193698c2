package io.riverbed.flink.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.flink.job.WriteJob;
import io.riverbed.flink.job.WriteJobArguments;
import io.riverbed.flink.sql.SqlScript;
import java.lang.StringBuilder;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.contrib.streaming.state.RocksDBConfigurableOptions;
import org.apache.flink.contrib.streaming.state.RocksDBOptions;
import org.junit.jupiter.api.Test;
import org.rocksdb.CompactionStyle;

/**
 * A job that picks RocksDB gets the settings that make the state index fast, each only where the
 * user left it unset; a job on the heap backend gets none of them.
 */
class RocksDbIndexSettingsTest {

  private static Configuration rocksDb() {
    return new Configuration().set(StateBackendOptions.STATE_BACKEND, "rocksdb");
  }

  @Test
  void rocksDbGetsIncrementalCheckpointsBloomFiltersAndManagedMemory() {
    Configuration conf = rocksDb();

    var set = RocksDbIndexSettings.apply(conf);

    assertThat(conf.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
    assertThat(conf.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isTrue();
    assertThat(conf.get(RocksDBConfigurableOptions.COMPACTION_STYLE)).isEqualTo(CompactionStyle.UNIVERSAL);
    assertThat(conf.get(RocksDBOptions.USE_MANAGED_MEMORY)).isTrue();
    assertThat(conf.get(TaskManagerOptions.MANAGED_MEMORY_SIZE)).isEqualTo(MemorySize.parse("1g"));
    assertThat(set).containsOnlyKeys(CheckpointingOptions.INCREMENTAL_CHECKPOINTS.key(),
        RocksDBConfigurableOptions.USE_BLOOM_FILTER.key(), RocksDBConfigurableOptions.COMPACTION_STYLE.key(),
        RocksDBOptions.USE_MANAGED_MEMORY.key(), TaskManagerOptions.MANAGED_MEMORY_SIZE.key());
  }

  @Test
  void levelSizesOrACompactionStyleOfTheUserKeepLeveledCompactionAsTheyTunedIt() {
    Configuration sized = rocksDb();
    sized.set(RocksDBConfigurableOptions.MAX_SIZE_LEVEL_BASE, MemorySize.parse("64m"));
    RocksDbIndexSettings.apply(sized);
    assertThat(sized.contains(RocksDBConfigurableOptions.COMPACTION_STYLE)).isFalse();

    Configuration styled = rocksDb();
    styled.setString("state.backend.rocksdb.compaction.style", "LEVEL");
    assertThat(RocksDbIndexSettings.apply(styled)).doesNotContainKey(RocksDBConfigurableOptions.COMPACTION_STYLE.key());
    assertThat(styled.get(RocksDBConfigurableOptions.COMPACTION_STYLE)).isEqualTo(CompactionStyle.LEVEL);
  }

  @Test
  void theUsersOwnSettingsWinAlsoUnderDeprecatedKeys() {
    Configuration conf = rocksDb();
    conf.setString("state.backend.incremental", "false"); // the deprecated key of execution.checkpointing.incremental
    conf.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, false);
    conf.set(RocksDBOptions.FIX_PER_SLOT_MEMORY_SIZE, MemorySize.parse("64m"));

    var set = RocksDbIndexSettings.apply(conf);

    assertThat(set).containsOnlyKeys(RocksDBConfigurableOptions.COMPACTION_STYLE.key());
    assertThat(conf.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isFalse();
    assertThat(conf.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isFalse();
    assertThat(conf.contains(TaskManagerOptions.MANAGED_MEMORY_SIZE)).as("memory sized by the user").isFalse();
  }

  @Test
  void aManagedMemoryFractionOfTheUserKeepsTheEmbeddedSizeUnset() {
    Configuration conf = rocksDb();
    conf.set(TaskManagerOptions.MANAGED_MEMORY_FRACTION, 0.6f);

    RocksDbIndexSettings.apply(conf);

    assertThat(conf.contains(TaskManagerOptions.MANAGED_MEMORY_SIZE)).isFalse();
    assertThat(conf.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isTrue();
  }

  @Test
  void theHeapBackendAndAnUnsetBackendAreLeftAlone() {
    for (Configuration conf : new Configuration[] {new Configuration(),
        new Configuration().set(StateBackendOptions.STATE_BACKEND, "hashmap")}) {
      assertThat(RocksDbIndexSettings.apply(conf)).isEmpty();
      assertThat(conf.contains(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isFalse();
      assertThat(conf.contains(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isFalse();
    }
  }

  @Test
  void rocksDbNamedByItsFactoryClassOrInCapitalsIsRocksDb() {
    assertThat(RocksDbIndexSettings.picksRocksDb(new Configuration().set(StateBackendOptions.STATE_BACKEND,
        "org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackendFactory"))).isTrue();
    assertThat(RocksDbIndexSettings.picksRocksDb(new Configuration().set(StateBackendOptions.STATE_BACKEND,
        "RocksDB"))).isTrue();
  }

  @Test
  void theWriteJobAppliesThemAfterItsFlinkConfFlags() {
    var config = WriteJobArguments.parse("--source", "file", "--input", "in.jsonl", "--table-path", "file:/lake/orders",
        "--table-name", "orders", "--table-type", "MERGE_ON_READ", "--record-key", "id", "--precombine", "ts",
        "--flink-conf", "state.backend.type=rocksdb", "--flink-conf", "state.backend.rocksdb.use-bloom-filter=false");

    Configuration conf = WriteJob.flinkConfiguration(config);

    assertThat(conf.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
    assertThat(conf.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).as("the user's flag").isFalse();
  }

  @Test
  void aSqlSessionAppliesThemWhenASetPicksRocksDb() throws Exception {
    SqlScript script = SqlScript.create(SqlScript.defaultConfiguration(java.time.Duration.ofSeconds(1)), Long.MAX_VALUE);
    var session = script.tableEnvironment().getConfig().getConfiguration();
    script.run("SET 'state.backend.rocksdb.use-bloom-filter' = 'false';", new StringBuilder());
    assertThat(session.contains(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).as("heap so far").isFalse();

    script.run("SET 'state.backend.type' = 'rocksdb';", new StringBuilder());

    assertThat(session.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
    assertThat(session.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).as("set before, by the user").isFalse();
  }
}
