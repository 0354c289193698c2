package io.riverbed.spark.write;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.hive.BatchWriteHiveSync;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The Hive sync a Spark write runs after its commit. Only this class names the optional hive-sync
 * module's types: executors deserialize {@link BatchWrite}'s lambdas, which resolves every method
 * signature of {@code BatchWrite}, and a class path without hive-sync must still write.
 */
final class WriteHiveSync {
  private final BatchWriteHiveSync sync;

  private WriteHiveSync(BatchWriteHiveSync sync) {
    this.sync = sync;
  }

  /** The sync {@code write} asks for, its options checked before anything is written. */
  static WriteHiveSync of(BatchWriteOptions write, Path base, Configuration conf, String sparkVersion) {
    try {
      return new WriteHiveSync(BatchWriteHiveSync.of(write, base, conf, sparkVersion));
    } catch (NoClassDefFoundError e) {
      throw new InvalidTableException("hudi: " + BatchWriteOptions.HIVE_SYNC_ENABLED + " needs Riverbed's Hive sync on "
          + "the class path, which the riverbed-spark-reader bundle jar carries: " + e.getMessage(), e);
    }
  }

  void sync(Table table, String instant) {
    sync.sync(table, instant);
  }
}
