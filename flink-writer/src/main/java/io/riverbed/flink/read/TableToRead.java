package io.riverbed.flink.read;

import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import java.io.Serializable;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The table a source reads: its base path and the connector options (Hadoop settings, read
 * settings), in a form that ships to the JobManager and the task managers, where it is opened.
 */
public record TableToRead(String path, Map<String, String> options) implements Serializable {
  private static final long serialVersionUID = 1L;

  public TableToRead {
    options = Map.copyOf(options);
  }

  /** Opens the table; a path that holds none fails naming it and the option. */
  public Table open() {
    FileSystem fs = FlinkTables.fileSystem(path, options);
    Path base = new Path(path);
    if (!Table.exists(fs, base)) {
      throw new TableException("option '" + HudiConnectorOptions.PATH.key() + "' = '" + path + "' holds no hudi table (no "
          + Table.META_FOLDER + "/hoodie.properties there)");
    }
    return Table.open(fs, base);
  }
}
