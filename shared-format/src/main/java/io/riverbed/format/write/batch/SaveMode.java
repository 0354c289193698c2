package io.riverbed.format.write.batch;

import io.riverbed.format.table.TableExistsException;
import java.util.Locale;
import org.apache.hadoop.fs.Path;

/**
 * What a batch write's save mode does to the table at its path, as Hudi's Spark writer treats
 * the modes: {@link #OVERWRITE} replaces the table (the old one is deleted, a new one created),
 * {@link #APPEND} writes into the table or creates it, {@link #ERROR_IF_EXISTS} creates a table
 * and fails if there is one, {@link #IGNORE} creates a table and does nothing if there is one.
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
