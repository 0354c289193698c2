package io.riverbed.flink.sink;

import io.riverbed.format.file.NioLocalFileSystem;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableExistsException;
import io.riverbed.format.table.TableDefinition;
import io.riverbed.format.TableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Opening (and creating on first use) the table the writer writes, from its options. */
public final class FlinkTables {
  private static final String HADOOP_PREFIX = "hadoop.";

  private FlinkTables() {}

  /** The file system of the table path; {@code hadoop.*} options go to the Hadoop configuration. */
  public static FileSystem fileSystem(FlinkWriteOptions options) {
    return fileSystem(options.path(), options.raw());
  }

  /** The file system of {@code path}; {@code hadoop.*} entries of {@code options} go to the Hadoop configuration. */
  public static FileSystem fileSystem(String path, java.util.Map<String, String> options) {
    Configuration conf = new Configuration();
    options.forEach((k, v) -> {
      if (k.startsWith(HADOOP_PREFIX)) {
        conf.set(k.substring(HADOOP_PREFIX.length()), v);
      }
    });
    try {
      return NioLocalFileSystem.of(new Path(path), conf);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot get the file system of " + path, e);
    }
  }

  /** Opens the table the options name. */
  public static Table open(FlinkWriteOptions options) {
    return Table.open(fileSystem(options), new Path(options.path()));
  }

  /**
   * Opens the table, creating it (UTC timeline, the writer's keys, precombine field, payload class
   * and schema) if the path holds none.
   *
   * @throws TableException if an existing table's type differs from {@code table.type}, its version
   *     from a {@code hoodie.write.table.version} the job sets, or the table has no record key field
   *     (its keys are generated)
   */
  public static Table openOrCreate(FlinkWriteOptions options, Schema schema) {
    FileSystem fs = fileSystem(options);
    Path path = new Path(options.path());
    if (!Table.exists(fs, path)) {
      var config = new TableDefinition(options.tableName(), options.tableType(), options.keyGeneratorOptions(),
          options.precombineField(), options.payloadClass(), schema, options.tableVersion().version()).toConfig();
      try {
        return Table.create(fs, path, config);
      } catch (TableExistsException e) {
        // created concurrently (client and coordinator): open it
      }
    }
    Table table = Table.open(fs, path);
    if (table.config().recordKeyFields().isEmpty()) {
      throw new TableException("table " + path + " has no record key field: its record keys are generated on insert "
          + "(a table created without a primary key, as Hudi 0.14+ and Riverbed's Spark writer create them), and the "
          + "Flink writer writes by key, so it does not write such a table; write it from Spark with insert or "
          + "bulk_insert, or write a table created with " + FlinkWriteOptions.RECORD_KEY_FIELD);
    }
    options.tableVersion().requireMatches(table);
    if (table.type() != options.tableType()) {
      throw new TableException("table " + path + " is " + table.type() + " but the writer is configured with "
          + FlinkWriteOptions.TABLE_TYPE + "=" + options.tableType());
    }
    return table;
  }
}
