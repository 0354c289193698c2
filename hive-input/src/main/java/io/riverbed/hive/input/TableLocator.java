package io.riverbed.hive.input;

import io.riverbed.format.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Finds the table a directory Hive reads belongs to: the table's base path (the nearest folder at
 * or above it holding {@code .hoodie/hoodie.properties}) and the directory's partition path
 * relative to it. Hive hands an input format partition folders (or the table folder), never the
 * base path and partition apart.
 */
final class TableLocator {
  private TableLocator() {}

  /** Where {@code dir} lies: its table's base path and its partition path ("" for the base path itself). */
  record Location(Path basePath, String partitionPath) {}

  static Location locate(FileSystem fs, Path dir) {
    Path qualified = fs.makeQualified(dir);
    StringBuilder partition = new StringBuilder();
    for (Path p = qualified; p != null; p = p.getParent()) {
      try {
        if (fs.exists(new Path(new Path(p, Table.META_FOLDER), "hoodie.properties"))) {
          return new Location(p, partition.toString());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot look for the Hudi table of " + qualified, e);
      }
      partition.insert(0, partition.length() == 0 ? p.getName() : p.getName() + "/");
    }
    throw new HiveInputException(qualified + " is not inside a Hudi table: no folder at or above it holds "
        + Table.META_FOLDER + "/hoodie.properties");
  }
}
