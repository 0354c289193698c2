package io.riverbed.flink.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where the {@code dfs} mode keeps a {@link TableDefinition}, as Hudi's Flink catalog keeps it:
 * {@code .hoodie/.aux/table_option.properties}, the table's options plus its primary key
 * ({@code pk.columns}, {@code pk.constraint.name}), partition columns and comment.
 */
final class TableOptionsFile {
  static final String FILE = ".hoodie/.aux/table_option.properties";
  private static final String PK_COLUMNS = "pk.columns";
  private static final String PK_CONSTRAINT_NAME = "pk.constraint.name";
  private static final String PARTITION_COLUMNS = "partition.columns";
  private static final String COMMENT = "comment";

  private TableOptionsFile() {}

  /** The definition kept for the table at {@code basePath}; empty if it has none (no catalog created it). */
  static Optional<TableDefinition> read(FileSystem fs, Path basePath) {
    Path file = new Path(basePath, FILE);
    try {
      if (!fs.exists(file)) {
        return Optional.empty();
      }
      Properties props = new Properties();
      try (InputStream in = fs.open(file)) {
        props.load(in);
      }
      Map<String, String> options = new TreeMap<>();
      props.stringPropertyNames().forEach(k -> options.put(k, props.getProperty(k)));
      return Optional.of(new TableDefinition(options, TableDefinition.columnList(options.remove(PK_COLUMNS)),
          options.remove(PK_CONSTRAINT_NAME), TableDefinition.columnList(options.remove(PARTITION_COLUMNS)),
          options.remove(COMMENT)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the table options " + file, e);
    }
  }

  /** Writes (or replaces) the definition of the table at {@code basePath}. */
  static void write(FileSystem fs, Path basePath, TableDefinition definition) {
    Path file = new Path(basePath, FILE);
    Properties props = new Properties();
    props.putAll(definition.options());
    if (!definition.primaryKey().isEmpty()) {
      props.put(PK_COLUMNS, String.join(",", definition.primaryKey()));
      if (definition.constraintName() != null) {
        props.put(PK_CONSTRAINT_NAME, definition.constraintName());
      }
    }
    if (!definition.partitionKeys().isEmpty()) {
      props.put(PARTITION_COLUMNS, String.join(",", definition.partitionKeys()));
    }
    if (definition.comment() != null && !definition.comment().isEmpty()) {
      props.put(COMMENT, definition.comment());
    }
    try (OutputStream out = fs.create(file, true)) {
      props.store(out, "Flink table options of the hudi catalog");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the table options " + file, e);
    }
  }
}
