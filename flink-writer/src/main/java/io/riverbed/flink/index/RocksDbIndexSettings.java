package io.riverbed.flink.index;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.contrib.streaming.state.RocksDBConfigurableOptions;
import org.apache.flink.contrib.streaming.state.RocksDBOptions;
import org.rocksdb.CompactionStyle;

/**
 * The Flink settings that keep the state index fast on RocksDB, added to a job's configuration
 * when it picks {@code state.backend.type: rocksdb} and leaves them unset: without them each
 * checkpoint uploads every SST file, every lookup of a new key (a miss) reads data blocks through
 * a 128 MB cache, which made an index of a few million keys 30 times slower, and every fourth
 * checkpoint uploads a task's whole index after a compaction.
 */
public final class RocksDbIndexSettings {
  /**
   * Managed memory of an embedded cluster's task manager ({@code riverbed-write}, {@code
   * riverbed-sql}), which RocksDB uses for its block cache and write buffers; a cluster's task
   * managers take theirs from their own configuration.
   */
  static final MemorySize EMBEDDED_MANAGED_MEMORY = MemorySize.parse("1g");

  private RocksDbIndexSettings() {}

  /** Whether {@code conf} picks the RocksDB state backend (by name or by its factory class). */
  public static boolean picksRocksDb(Configuration conf) {
    String backend = conf.get(StateBackendOptions.STATE_BACKEND);
    if (backend == null) {
      return false;
    }
    String b = backend.trim().toLowerCase(Locale.ROOT);
    return b.equals("rocksdb") || b.endsWith("rocksdbstatebackendfactory");
  }

  /**
   * Sets in {@code conf}, when it picks RocksDB, each of these the user has not set: incremental
   * checkpoints, bloom filters on every column family (the index's included), universal compaction
   * (unless the user sized levels: then it is leveled compaction they tuned), RocksDB memory from
   * Flink's managed memory (block cache, index and filter blocks, write buffers), and the embedded
   * cluster's managed memory size (unless the user sized managed memory or RocksDB's memory
   * otherwise). Returns what it set, for the log.
   *
   * <p>Universal compaction: every checkpoint flushes a small file of changed keys, spread over the
   * whole key range; leveled compaction merges every four of them into the first level, which for
   * an index below 256 MB per task is the whole index, so every fourth incremental checkpoint
   * uploaded the task's whole index. Universal compaction merges the small files with each other and
   * rewrites the whole index only when they have grown to its size (PERFORMANCE.md, the index at
   * scale). Checkpoints of jobs on leveled compaction restore into it.
   */
  public static Map<String, String> apply(Configuration conf) {
    Map<String, String> set = new LinkedHashMap<>();
    if (!picksRocksDb(conf)) {
      return set;
    }
    setUnlessPresent(conf, CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true, set);
    setUnlessPresent(conf, RocksDBConfigurableOptions.USE_BLOOM_FILTER, true, set);
    boolean levelsSizedByUser = conf.contains(RocksDBConfigurableOptions.USE_DYNAMIC_LEVEL_SIZE)
        || conf.contains(RocksDBConfigurableOptions.MAX_SIZE_LEVEL_BASE)
        || conf.contains(RocksDBConfigurableOptions.TARGET_FILE_SIZE_BASE);
    if (!levelsSizedByUser) {
      setUnlessPresent(conf, RocksDBConfigurableOptions.COMPACTION_STYLE, CompactionStyle.UNIVERSAL, set);
    }
    boolean memorySizedByUser = conf.contains(RocksDBOptions.FIX_PER_SLOT_MEMORY_SIZE)
        || conf.contains(RocksDBOptions.FIX_PER_TM_MEMORY_SIZE)
        || conf.contains(TaskManagerOptions.MANAGED_MEMORY_FRACTION)
        || conf.contains(TaskManagerOptions.MANAGED_MEMORY_SIZE)
        || conf.contains(RocksDBOptions.USE_MANAGED_MEMORY);
    if (!memorySizedByUser) {
      setUnlessPresent(conf, RocksDBOptions.USE_MANAGED_MEMORY, true, set);
      setUnlessPresent(conf, TaskManagerOptions.MANAGED_MEMORY_SIZE, EMBEDDED_MANAGED_MEMORY, set);
    }
    return set;
  }

  private static <T> void setUnlessPresent(Configuration conf, ConfigOption<T> option, T value, Map<String, String> set) {
    if (!conf.contains(option)) {
      conf.set(option, value);
      set.put(option.key(), String.valueOf(value));
    }
  }
}
