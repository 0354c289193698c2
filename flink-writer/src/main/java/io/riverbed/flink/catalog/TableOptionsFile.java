package io.riverbed.flink.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The Flink table definition a catalog keeps beside a table, where Hudi's Flink catalog keeps it:
 * {@code .hoodie/.aux/table_option.properties}, the table's options plus its primary key
 * ({@code pk.columns}, {@code pk.constraint.name}), partition columns and comment.
 */
record TableOptionsFile(Map<String, String> options, List<String> primaryKey, String constraintName,
    List<String> partitionKeys, String comment) {
  static final String FILE = ".hoodie/.aux/table_option.properties";
  private static final String PK_COLUMNS = "pk.columns";
  private static final String PK_CONSTRAINT_NAME = "pk.constraint.name";
  private static final String PARTITION_COLUMNS = "partition.columns";
  private static final String COMMENT = "comment";

  TableOptionsFile {
    options = Map.copyOf(options);
    primaryKey = List.copyOf(primaryKey);
    partitionKeys = List.copyOf(partitionKeys);
  }

  /** The file of the table at {@code basePath}; empty if the table has none (it was not created by a catalog). */
  static Optional<TableOptionsFile> read(FileSystem fs, Path basePath) {
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
      List<String> pk = split(options.remove(PK_COLUMNS));
      String constraint = options.remove(PK_CONSTRAINT_NAME);
      List<String> partitions = split(options.remove(PARTITION_COLUMNS));
      String comment = options.remove(COMMENT);
      return Optional.of(new TableOptionsFile(options, pk, constraint, partitions, comment));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the table options " + file, e);
    }
  }

  /** Writes (or replaces) the file of the table at {@code basePath}. */
  void write(FileSystem fs, Path basePath) {
    Path file = new Path(basePath, FILE);
    Properties props = new Properties();
    props.putAll(options);
    if (!primaryKey.isEmpty()) {
      props.put(PK_COLUMNS, String.join(",", primaryKey));
      if (constraintName != null) {
        props.put(PK_CONSTRAINT_NAME, constraintName);
      }
    }
    if (!partitionKeys.isEmpty()) {
      props.put(PARTITION_COLUMNS, String.join(",", partitionKeys));
    }
    if (comment != null && !comment.isEmpty()) {
      props.put(COMMENT, comment);
    }
    try (OutputStream out = fs.create(file, true)) {
      props.store(out, "Flink table options of the hudi catalog");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the table options " + file, e);
    }
  }

  TableOptionsFile withOptions(Map<String, String> changed) {
    return new TableOptionsFile(changed, primaryKey, constraintName, partitionKeys, comment);
  }

  private static List<String> split(String columns) {
    List<String> out = new ArrayList<>();
    if (columns != null) {
      for (String c : columns.split(",")) {
        if (!c.isBlank()) {
          out.add(c.trim());
        }
      }
    }
    return out;
  }
}
