package io.riverbed.hive;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * {@code riverbed-hive-sync}: one sync of a table to a Hive Metastore from the command line
 * ({@link HiveSyncArguments#USAGE}); the counterpart of Hudi's {@code run_sync_tool.sh}.
 */
public final class HiveSyncMain {
  private HiveSyncMain() {}

  /** The command's log configuration (warnings to stderr), unless one is given with {@code -Dlog4j2.configurationFile}. */
  static final String LOG_CONFIG = "riverbed-hive-sync-log4j2.properties";

  public static void main(String[] args) {
    if (System.getProperty("log4j2.configurationFile") == null && System.getProperty("log4j.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", LOG_CONFIG);
    }
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status (0 synced, 1 sync failed, 2 bad command line). */
  static int run(String[] args, PrintStream out, PrintStream err) {
    HiveSyncArguments arguments;
    try {
      arguments = HiveSyncArguments.parse(args);
    } catch (HiveSyncArguments.UsageException e) {
      if (e.getMessage() == null) {
        out.print(HiveSyncArguments.USAGE);
        return 0;
      }
      err.println("riverbed-hive-sync: " + e.getMessage());
      err.print(HiveSyncArguments.USAGE);
      return 2;
    }
    try {
      for (TableSyncResult result : sync(arguments)) {
        out.println(result.summary());
      }
      return 0;
    } catch (TableException | java.io.UncheckedIOException e) {
      err.println("riverbed-hive-sync: " + e.getMessage());
      return 1;
    }
  }

  /** Opens the table and runs one sync with the given arguments. */
  public static List<TableSyncResult> sync(HiveSyncArguments arguments) {
    HiveSyncOptions options = HiveSyncOptions.fromMap(arguments.options());
    Configuration conf = new Configuration();
    arguments.hadoop().forEach(conf::set);
    Path base = new Path(options.basePath());
    Table table;
    try {
      table = Table.open(base.getFileSystem(conf), base);
    } catch (java.io.IOException e) {
      throw new HiveSyncException("cannot reach the file system of " + base + ": " + e.getMessage(), e);
    }
    try (MetastoreClient client = MetastoreClient.connect(options.metastoreUris(), conf)) {
      return HiveSync.of(table, options).run(client);
    }
  }
}
