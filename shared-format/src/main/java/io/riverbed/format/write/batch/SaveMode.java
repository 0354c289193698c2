package io.riverbed.format.write.batch;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.TableExistsException;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.Locale;
import org.apache.hadoop.fs.Path;

/**
 * What a batch write's save mode does to the table at its path, as Hudi's Spark writer treats
 * the modes: {@link #OVERWRITE} replaces the table (the old one is deleted, a new one created),
 * {@link #APPEND} writes into the table or creates it, {@link #ERROR_IF_EXISTS} creates a table
 * and fails if there is one, {@link #IGNORE} creates a table and does nothing if there is one.
 * Two operations change that, as in Hudi 0.15: {@code insert_overwrite_table} under
 * {@link #OVERWRITE} keeps the table and replaces all its file groups, and {@code delete_partition}
 * needs an existing table.
 */
public enum SaveMode {
  APPEND, OVERWRITE, ERROR_IF_EXISTS, IGNORE;

  /** What the write does to the table. */
  public enum Step {
    /** No table there: create it, then write. */
    CREATE,
    /** Delete the table there, create a new one, then write. */
    REPLACE,
    /** Write into the table there. */
    WRITE,
    /** Leave the table there as it is and write nothing. */
    SKIP
  }

  /** The mode of a name such as Spark's {@code SaveMode.name()} ({@code ErrorIfExists}, {@code append}). */
  public static SaveMode of(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT).replace("_", "");
    return switch (n) {
      case "append" -> APPEND;
      case "overwrite" -> OVERWRITE;
      case "errorifexists", "error", "default" -> ERROR_IF_EXISTS;
      case "ignore" -> IGNORE;
      default -> throw new IllegalArgumentException("unknown save mode '" + name + "'");
    };
  }

  /**
   * The step for a write of {@code operation} to a table path that holds a table or not.
   *
   * @throws TableExistsException for {@link #ERROR_IF_EXISTS} on an existing table
   * @throws InvalidTableException for {@code delete_partition} where there is no table, or under
   *     {@link #OVERWRITE} (Hudi would delete the table and then fail for want of one)
   */
  public Step step(Path basePath, boolean tableExists, WriteOperationType operation) {
    if (operation == WriteOperationType.DELETE_PARTITION) {
      if (!tableExists) {
        throw new InvalidTableException("hudi: there is no Hudi table at " + basePath + " to delete partitions of");
      }
      if (this == OVERWRITE) {
        throw new InvalidTableException("hudi: delete_partition with save mode Overwrite would delete the table at "
            + basePath + " before deleting its partitions; write with mode Append");
      }
    }
    if (operation == WriteOperationType.INSERT_OVERWRITE_TABLE && tableExists && this == OVERWRITE) {
      return Step.WRITE;
    }
    return step(basePath, tableExists);
  }

  /**
   * The step for a table path that holds a table or not.
   *
   * @throws TableExistsException for {@link #ERROR_IF_EXISTS} on an existing table
   */
  public Step step(Path basePath, boolean tableExists) {
    if (!tableExists) {
      return Step.CREATE;
    }
    return switch (this) {
      case APPEND -> Step.WRITE;
      case OVERWRITE -> Step.REPLACE;
      case IGNORE -> Step.SKIP;
      case ERROR_IF_EXISTS -> throw new TableExistsException("a Hudi table already exists at " + basePath
          + " and the save mode is ErrorIfExists; write with mode Append to add to it, or Overwrite to replace it");
    };
  }
}
