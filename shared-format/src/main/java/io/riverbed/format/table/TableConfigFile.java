package io.riverbed.format.table;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.InvalidTableException;
import io.riverbed.format.TableException;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes {@code .hoodie/hoodie.properties} the way Hudi 0.15 does: Java properties text
 * ({@code Properties.store} escaping, ISO-8859-1, two comment lines), the table checksum always
 * written and validated only when present, a fallback to {@code hoodie.properties.backup} while
 * the main file is missing or invalid, and the backup-delete-write-verify update protocol.
 */
public final class TableConfigFile {

  public static final String FILE_NAME = "hoodie.properties";
  public static final String BACKUP_FILE_NAME = "hoodie.properties.backup";

  private static final Logger LOG = LoggerFactory.getLogger(TableConfigFile.class);

  private TableConfigFile() {}

  public static Path path(Path metaPath) {
    return new Path(metaPath, FILE_NAME);
  }

  public static Path backupPath(Path metaPath) {
    return new Path(metaPath, BACKUP_FILE_NAME);
  }

  /** True if the main file or its backup exists under {@code metaPath}. */
  public static boolean exists(FileSystem fs, Path metaPath) {
    try {
      return fs.exists(path(metaPath)) || fs.exists(backupPath(metaPath));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check " + path(metaPath), e);
    }
  }

  /**
   * Reads the table config as Hudi 0.15's {@code HoodieTableConfig} does, and no more leniently
   * where the main file is damaged: the main file is used if it is intact (see
   * {@link #damageOf}); otherwise an intact backup is used (an update in progress or interrupted,
   * or a torn write of the main file). Reading never writes: the repair is {@link #recover}'s,
   * which writers run. Does not check the table version: see {@link TableConfig#requireSupported}.
   *
   * @throws InvalidTableException if neither file exists
   * @throws CorruptFileException if the main file is damaged (unparseable, no table name, no
   *     parseable table version, a wrong checksum) and no intact backup exists; the message names
   *     the file and every defect found
   */
  public static TableConfig read(FileSystem fs, Path metaPath) {
    Path main = path(metaPath);
    Path backup = backupPath(metaPath);
    Loaded fromMain = load(fs, main);
    if (fromMain.isIntact() && !fromMain.lacksChecksum()) {
      return fromMain.config;
    }
    Loaded fromBackup = load(fs, backup);
    if (fromBackup.isIntact() && (!fromMain.exists() || !fromMain.isIntact() || !fromBackup.lacksChecksum())) {
      LOG.warn("{} is {}; using {}", main, fromMain.describeState(), backup);
      return fromBackup.config;
    }
    if (fromMain.isIntact() || fromMain.onlyLacksLayoutVersion()) {
      // no checksum (accepted, as Hudi 0.15 does), or no layout version (requireSupported says so)
      return fromMain.config;
    }
    if (fromMain.exists()) {
      throw damaged(fromMain, fromBackup);
    }
    // The updater may have written the main file and deleted the backup between our two looks.
    Loaded again = load(fs, main);
    if (again.exists()) {
      if (again.isIntact() || again.onlyLacksLayoutVersion()) {
        return again.config;
      }
      throw damaged(again, fromBackup);
    }
    if (fromBackup.exists()) {
      throw new CorruptFileException(main + " is missing and " + backup + " is damaged: "
          + String.join("; ", fromBackup.problems));
    }
    throw new InvalidTableException(metaPath.getParent() + " is not a Hudi table: no "
        + Table.META_FOLDER + "/" + FILE_NAME);
  }

  /**
   * Hudi's {@code recoverIfNeeded}, which writers run before they change the table: if the main
   * file is missing or damaged and the backup is intact, the main file is rewritten from the
   * backup's bytes; then a leftover backup is deleted. Unlike Hudi 0.15, a damaged main file is
   * never deleted when there is no intact backup to replace it: that fails instead, leaving both
   * files for an operator. Returns the config now in the main file.
   *
   * @throws CorruptFileException if the main file is damaged and no intact backup exists
   * @throws InvalidTableException if neither file exists
   */
  public static TableConfig recover(FileSystem fs, Path metaPath) {
    Path main = path(metaPath);
    Path backup = backupPath(metaPath);
    try {
      Loaded fromMain = load(fs, main);
      Loaded fromBackup = load(fs, backup);
      boolean mainUsable = fromMain.isIntact() || (fromMain.onlyLacksLayoutVersion() && !fromBackup.isIntact());
      boolean preferBackup = fromBackup.isIntact() && fromMain.lacksChecksum() && !fromBackup.lacksChecksum();
      TableConfig result;
      if (mainUsable && !preferBackup) {
        result = fromMain.config;
      } else if (fromBackup.isIntact()) {
        LOG.warn("{} is {}; restoring it from {}", main, fromMain.describeState(), backup);
        if (fromMain.exists() && !fs.delete(main, false)) {
          throw new TableException("cannot delete damaged " + main + " to restore it from " + backup);
        }
        try (FSDataOutputStream out = fs.create(main, false)) {
          out.write(fromBackup.bytes);
        }
        Loaded restored = load(fs, main);
        if (!restored.isIntact() || !restored.config.equals(fromBackup.config)) {
          throw new CorruptFileException(main + " did not read back as restored from " + backup
              + "; " + backup + " is kept for recovery");
        }
        result = restored.config;
      } else if (fromMain.exists()) {
        throw damaged(fromMain, fromBackup);
      } else if (fromBackup.exists()) {
        throw new CorruptFileException(main + " is missing and " + backup + " is damaged: "
            + String.join("; ", fromBackup.problems));
      } else {
        throw new InvalidTableException(metaPath.getParent() + " is not a Hudi table: no "
            + Table.META_FOLDER + "/" + FILE_NAME);
      }
      if (fromBackup.exists() && fs.exists(backup)) {
        fs.delete(backup, false);
        LOG.info("Deleted leftover {}", backup);
      }
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("recovery of " + main + " from " + backup + " failed", e);
    }
  }

  /**
   * What is wrong with a config read from a {@code hoodie.properties} file, as short phrases;
   * empty if it is intact: it has a table name, a numeric table version and, if present, a known
   * table type, a numeric timeline layout version and a checksum that matches the name. A missing layout version is
   * reported last as {@link #NO_LAYOUT_VERSION} (Hudi readers refuse such a table, which
   * {@link TableConfig#requireSupported} reports).
   */
  public static List<String> damageOf(TableConfig config) {
    var problems = new ArrayList<String>();
    String name = config.properties().get(TableProperty.NAME.key());
    if (name == null || name.isBlank()) {
      problems.add("no " + TableProperty.NAME.key());
    }
    String version = config.properties().get(TableProperty.VERSION.key());
    if (version == null) {
      problems.add("no " + TableProperty.VERSION.key());
    } else if (!isInt(version)) {
      problems.add(TableProperty.VERSION.key() + " '" + abbreviate(version) + "' is not a number");
    }
    String type = config.properties().get(TableProperty.TYPE.key());
    if (type != null && java.util.Arrays.stream(TableType.values()).noneMatch(t -> t.name().equals(type.trim()))) {
      problems.add(TableProperty.TYPE.key() + " '" + abbreviate(type) + "' is not a table type");
    }
    String layout = config.properties().get(TableProperty.TIMELINE_LAYOUT_VERSION.key());
    if (layout != null && !isInt(layout)) {
      problems.add(TableProperty.TIMELINE_LAYOUT_VERSION.key() + " '" + abbreviate(layout) + "' is not a number");
    }
    String checksum = config.properties().get(TableProperty.CHECKSUM.key());
    if (checksum != null && name != null && !name.isBlank() && !config.hasValidChecksum()) {
      problems.add(TableProperty.CHECKSUM.key() + " is " + abbreviate(checksum) + " but table name '" + name
          + "' and database '" + config.database().orElse("") + "' give " + config.expectedChecksum());
    }
    if (layout == null) {
      problems.add(NO_LAYOUT_VERSION);
    }
    return List.copyOf(problems);
  }

  static final String NO_LAYOUT_VERSION = "no " + TableProperty.TIMELINE_LAYOUT_VERSION.key();

  /** Writes the config of a new table; fails if the file already exists. */
  public static void create(FileSystem fs, Path metaPath, TableConfig config) {
    Path main = path(metaPath);
    write(fs, main, withChecksum(config), "Properties saved on " + Instant.now());
    LOG.info("Created {}", main);
  }

  /**
   * Changes entries with Hudi's safe update protocol: recover from the backup if needed, copy the
   * file to the backup, delete it, write the new file, read it back and check it, delete the
   * backup. A null value removes the key. Returns the config as written.
   */
  public static TableConfig update(FileSystem fs, Path metaPath, Map<String, String> changes) {
    Path main = path(metaPath);
    Path backup = backupPath(metaPath);
    TableConfig current = recover(fs, metaPath);
    try {
      copy(fs, main, backup);
      if (!fs.delete(main, false)) {
        throw new TableException("cannot delete " + main + " during a table config update");
      }
      TableConfig updated = withChecksum(current.with(changes));
      write(fs, main, updated, "Updated at " + Instant.now());
      Loaded written = load(fs, main);
      if (!written.isIntact() || !written.config.equals(updated)) {
        throw new CorruptFileException("table config update of " + main
            + " did not read back as written; " + backup + " is kept for recovery");
      }
      fs.delete(backup, false);
      LOG.info("Updated {}: {}", main, changes.keySet());
      return updated;
    } catch (IOException e) {
      throw new UncheckedIOException("table config update of " + main + " failed", e);
    }
  }

  // ---- text format ---------------------------------------------------------------------------

  /** The file bytes for this config: two comment lines, then the entries in key order. */
  public static byte[] serialize(TableConfig config, String comment) {
    return PropertiesText.store(config.properties(), comment);
  }

  /** Parses properties text; {@code file} names the source in errors. */
  public static TableConfig parse(InputStream in, Path file) {
    try {
      return TableConfig.of(PropertiesText.load(in));
    } catch (IOException | IllegalArgumentException e) {
      throw new CorruptFileException("cannot parse " + file + ": " + e.getMessage(), e);
    }
  }

  static TableConfig withChecksum(TableConfig config) {
    return config.with(TableProperty.CHECKSUM, String.valueOf(config.expectedChecksum()));
  }

  private static void write(FileSystem fs, Path file, TableConfig config, String comment) {
    byte[] bytes = serialize(config, comment);
    try (FSDataOutputStream out = fs.create(file, false)) {
      out.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** A config file's bytes, its parsed config (null if unparseable) and what is wrong with it. */
  private record Loaded(Path file, byte[] bytes, TableConfig config, List<String> problems) {
    boolean exists() {
      return bytes != null;
    }

    boolean isIntact() {
      return exists() && problems.isEmpty();
    }

    boolean onlyLacksLayoutVersion() {
      return exists() && problems.equals(List.of(NO_LAYOUT_VERSION));
    }

    boolean lacksChecksum() {
      return config != null && config.get(TableProperty.CHECKSUM).isEmpty();
    }

    String describeState() {
      if (!exists()) {
        return "missing";
      }
      return problems.isEmpty() ? "without " + TableProperty.CHECKSUM.key() : "damaged (" + String.join("; ", problems) + ")";
    }
  }

  private static Loaded load(FileSystem fs, Path file) {
    byte[] bytes;
    try (InputStream in = fs.open(file)) {
      bytes = in.readAllBytes();
    } catch (FileNotFoundException e) {
      return new Loaded(file, null, null, List.of());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    TableConfig config;
    try {
      config = TableConfig.of(PropertiesText.load(new ByteArrayInputStream(bytes)));
    } catch (IOException | IllegalArgumentException e) {
      return new Loaded(file, bytes, null, List.of("not a properties file (" + e.getMessage() + ")"));
    }
    return new Loaded(file, bytes, config, damageOf(config));
  }

  private static CorruptFileException damaged(Loaded main, Loaded backup) {
    String backupState = backup.exists()
        ? backup.file + " is damaged too (" + String.join("; ", backup.problems) + ")"
        : backup.file + " does not exist";
    return new CorruptFileException("damaged table config " + main.file + ": " + String.join("; ", main.problems)
        + "; no valid " + BACKUP_FILE_NAME + " to recover from: " + backupState);
  }

  private static boolean isInt(String value) {
    try {
      Integer.parseInt(value.trim());
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String abbreviate(String value) {
    return value.length() <= 40 ? value : value.substring(0, 40) + "...";
  }

  private static void copy(FileSystem fs, Path from, Path to) throws IOException {
    byte[] bytes;
    try (InputStream in = fs.open(from)) {
      bytes = in.readAllBytes();
    }
    try (FSDataOutputStream out = fs.create(to, true)) {
      out.write(bytes);
    }
  }
}
