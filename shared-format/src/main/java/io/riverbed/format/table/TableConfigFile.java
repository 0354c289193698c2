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
   * Reads the table config. Uses the backup when the main file is missing or its checksum does
   * not match (an update in progress or interrupted). Does not check the table version: see
   * {@link TableConfig#requireSupported}.
   *
   * @throws InvalidTableException if neither file exists
   * @throws CorruptFileException if the main file's checksum is wrong and no valid backup exists
   */
  public static TableConfig read(FileSystem fs, Path metaPath) {
    Path main = path(metaPath);
    Path backup = backupPath(metaPath);
    TableConfig fromMain = tryLoad(fs, main);
    if (fromMain != null && fromMain.hasValidChecksum()) {
      return fromMain;
    }
    TableConfig fromBackup = tryLoad(fs, backup);
    if (fromBackup != null && fromBackup.hasValidChecksum()) {
      LOG.warn("{} is {}; using {}", main, fromMain == null ? "missing" : "invalid", backup);
      return fromBackup;
    }
    if (fromMain != null) {
      throw checksumMismatch(main, fromMain);
    }
    // The updater may have written the main file and deleted the backup between our two looks.
    TableConfig again = tryLoad(fs, main);
    if (again != null) {
      if (!again.hasValidChecksum()) {
        throw checksumMismatch(main, again);
      }
      return again;
    }
    throw new InvalidTableException(metaPath.getParent() + " is not a Hudi table: no "
        + Table.META_FOLDER + "/" + FILE_NAME);
  }

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
    try {
      recoverIfNeeded(fs, main, backup);
      TableConfig current = tryLoad(fs, main);
      if (current == null) {
        throw new InvalidTableException(metaPath.getParent() + " is not a Hudi table: no "
            + Table.META_FOLDER + "/" + FILE_NAME);
      }
      if (!current.hasValidChecksum()) {
        throw checksumMismatch(main, current);
      }
      copy(fs, main, backup);
      if (!fs.delete(main, false)) {
        throw new TableException("cannot delete " + main + " during a table config update");
      }
      TableConfig updated = withChecksum(current.with(changes));
      write(fs, main, updated, "Updated at " + Instant.now());
      TableConfig written = tryLoad(fs, main);
      if (written == null || !written.hasValidChecksum() || !written.equals(updated)) {
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

  /** Hudi's recovery step: restore the main file from the backup if missing or invalid. */
  private static void recoverIfNeeded(FileSystem fs, Path main, Path backup) throws IOException {
    boolean needCopy = false;
    if (!fs.exists(main)) {
      needCopy = true;
    } else {
      TableConfig existing = tryLoad(fs, main);
      if (existing == null || !existing.hasValidChecksum()) {
        LOG.warn("{} is invalid; restoring it from {}", main, backup);
        fs.delete(main, false);
        needCopy = true;
      }
    }
    if (needCopy && fs.exists(backup)) {
      copy(fs, backup, main);
    }
    if (fs.exists(backup)) {
      fs.delete(backup, false);
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

  private static TableConfig tryLoad(FileSystem fs, Path file) {
    try (InputStream in = fs.open(file)) {
      return parse(new ByteArrayInputStream(in.readAllBytes()), file);
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
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

  private static CorruptFileException checksumMismatch(Path file, TableConfig config) {
    return new CorruptFileException(file + ": " + TableProperty.CHECKSUM.key() + " is "
        + config.get(TableProperty.CHECKSUM).orElse("") + " but table name '"
        + config.get(TableProperty.NAME).orElse("") + "' and database '"
        + config.get(TableProperty.DATABASE_NAME).orElse("") + "' give " + config.expectedChecksum()
        + ", and no valid " + BACKUP_FILE_NAME + " exists");
  }
}
