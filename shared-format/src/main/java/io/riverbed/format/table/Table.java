package io.riverbed.format.table;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.TableException;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Hudi table at a base path: its file system, folders, configuration and timeline. Version 6
 * tables and version 8 tables (Hudi 1.x, timeline layout 2) are read and written, each in its own
 * layout. Obtained with {@link #create} or {@link #open}; the instance itself does no I/O until asked.
 */
public final class Table {

  public static final String META_FOLDER = ".hoodie";
  public static final String SCHEMA_FOLDER = ".schema";
  public static final String TEMP_FOLDER = ".temp";
  public static final String AUX_FOLDER = ".aux";
  public static final String BOOTSTRAP_PARTITIONS_FOLDER = ".aux/.bootstrap/.partitions";
  public static final String BOOTSTRAP_FILE_IDS_FOLDER = ".aux/.bootstrap/.fileids";
  public static final String HEARTBEAT_FOLDER = ".heartbeat";
  public static final String METADATA_TABLE_FOLDER = "metadata";

  private static final Logger LOG = LoggerFactory.getLogger(Table.class);

  private final FileSystem fs;
  private final Path basePath;
  private final TableConfig config;
  private final TimelineStore timelineStore;

  private Table(FileSystem fs, Path basePath, TableConfig config) {
    this(fs, basePath, config, TimelineStore.at(fs, timelinePath(basePath, config), config.timelineLayoutVersion(),
        config.timelineTimezone().zoneId()));
  }

  /** A table derived from another instance of the same table: it shares that instance's timeline store. */
  private Table(FileSystem fs, Path basePath, TableConfig config, TimelineStore timelineStore) {
    this.fs = fs;
    this.basePath = basePath;
    this.config = config;
    this.timelineStore = timelineStore;
  }

  /**
   * Creates a new table: the {@code .hoodie} folder tree Hudi creates for its table version (the
   * archive folder for version 6; {@code timeline/} and its {@code history/} for version 8), then
   * {@code hoodie.properties} with its checksum.
   *
   * @throws TableExistsException if {@code basePath} already holds a table
   */
  public static Table create(FileSystem fs, Path basePath, TableConfig config) {
    Objects.requireNonNull(config, "config");
    Path base = fs.makeQualified(basePath);
    config.requireSupported(base);
    Path meta = new Path(base, META_FOLDER);
    if (TableConfigFile.exists(fs, meta)) {
      throw new TableExistsException("cannot create table '" + config.name() + "' at " + base
          + ": a Hudi table already exists there");
    }
    String timelineFolders = config.timelineLayoutVersion() >= TableConfig.TIMELINE_LAYOUT_VERSION_2
        ? config.timelineFolder() + "/" + config.getOrDefault(TableProperty.TIMELINE_HISTORY_PATH)
        : config.archiveLogFolder();
    try {
      for (String folder : List.of(SCHEMA_FOLDER, timelineFolders, TEMP_FOLDER, AUX_FOLDER,
          BOOTSTRAP_PARTITIONS_FOLDER, BOOTSTRAP_FILE_IDS_FOLDER)) {
        Path p = new Path(meta, folder);
        if (!fs.mkdirs(p)) {
          throw new TableException("cannot create folder " + p + " of table " + base);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the folders of table " + base, e);
    }
    TableConfigFile.create(fs, meta, config);
    LOG.info("Created {} table '{}' at {}", config.type(), config.name(), base);
    return new Table(fs, base, TableConfigFile.withChecksum(config));
  }

  /**
   * Opens the table at {@code basePath}.
   *
   * @throws InvalidTableException if there is no {@code .hoodie/hoodie.properties} (nor its
   *     backup), or the table version is neither 6 nor 8, or the timeline layout version is missing
   *     or not the one of the table version
   */
  public static Table open(FileSystem fs, Path basePath) {
    Path base = fs.makeQualified(basePath);
    Path meta = new Path(base, META_FOLDER);
    if (!TableConfigFile.exists(fs, meta)) {
      throw new InvalidTableException(base + " is not a Hudi table: no " + META_FOLDER + "/"
          + TableConfigFile.FILE_NAME);
    }
    TableConfig config = TableConfigFile.read(fs, meta);
    config.requireReadable(base);
    return new Table(fs, base, config);
  }

  /** True if {@code basePath} holds a table config (main file or backup). */
  public static boolean exists(FileSystem fs, Path basePath) {
    return TableConfigFile.exists(fs, new Path(fs.makeQualified(basePath), META_FOLDER));
  }

  public FileSystem fs() {
    return fs;
  }

  public Path basePath() {
    return basePath;
  }

  /** {@code <basePath>/.hoodie}: the table config lives here, and the timeline of layout version 1. */
  public Path metaPath() {
    return new Path(basePath, META_FOLDER);
  }

  /** The folder of the active timeline: {@code .hoodie} (layout 1) or {@code .hoodie/timeline} (layout 2). */
  public Path timelinePath() {
    return timelinePath(basePath, config);
  }

  private static Path timelinePath(Path basePath, TableConfig config) {
    String folder = config.timelineFolder();
    Path meta = new Path(basePath, META_FOLDER);
    return folder.isEmpty() ? meta : new Path(meta, folder);
  }

  public TableConfig config() {
    return config;
  }

  /**
   * The store of this table's active timeline: reads state files and makes transitions. One per
   * {@code Table}, so the timeline it remembers is shared by everything holding this instance.
   */
  public TimelineStore timelineStore() {
    return timelineStore;
  }

  /**
   * The active timeline as this instance last listed it (listed now if never, or if a transition
   * through {@link #timelineStore} happened since). For the steps of an operation that began with
   * {@link #refreshTimeline}.
   */
  public Timeline timeline() {
    return timelineStore.current();
  }

  /** Lists the active timeline now, seeing every writer's transitions; later {@link #timeline} calls return it. */
  public Timeline refreshTimeline() {
    return timelineStore.load();
  }

  public String name() {
    return config.name();
  }

  public TableType type() {
    return config.type();
  }

  public Path tempPath() {
    return new Path(metaPath(), TEMP_FOLDER);
  }

  /**
   * The archived timeline's folder: {@code .hoodie/<hoodie.archivelog.folder>} (layout 1), or the
   * LSM history under the active timeline's folder (layout 2, {@code hoodie.timeline.history.path}).
   */
  public Path archivePath() {
    if (config.timelineLayoutVersion() >= TableConfig.TIMELINE_LAYOUT_VERSION_2) {
      return new Path(timelinePath(), config.getOrDefault(TableProperty.TIMELINE_HISTORY_PATH));
    }
    return new Path(metaPath(), config.archiveLogFolder());
  }

  public Path metadataTablePath() {
    return new Path(metaPath(), METADATA_TABLE_FOLDER);
  }

  /** The folder of a partition given by its relative path ({@code ""} is the base path). */
  public Path partitionPath(String relativePartitionPath) {
    return relativePartitionPath.isEmpty() ? basePath : new Path(basePath, relativePartitionPath);
  }

  /** All partitions, found by listing (folders holding a partition marker), sorted. */
  public List<String> listPartitions() {
    return PartitionDiscovery.listPartitions(fs, basePath);
  }

  /** All partitions, sorted, each with the files directly inside its folder, from one listing. */
  public Map<String, List<FileStatus>> listPartitionFiles() {
    return PartitionDiscovery.listPartitionFiles(fs, basePath);
  }

  /** The table with its config re-read from storage. */
  public Table reload() {
    return new Table(fs, basePath, open(fs, basePath).config, timelineStore);
  }

  /**
   * Changes config entries with the safe update protocol (a null value removes the key) and
   * returns the table with the new config.
   */
  public Table updateConfig(Map<String, String> changes) {
    config.requireSupported(basePath);
    TableConfig updated = TableConfigFile.update(fs, metaPath(), changes);
    return new Table(fs, basePath, updated, timelineStore);
  }

  /**
   * Makes the table ready for a writer, as Hudi's writers find it: {@code hoodie.properties} is
   * restored from an intact {@code hoodie.properties.backup} if it is missing or damaged, and a
   * leftover backup is deleted ({@link TableConfigFile#recover}); then a metadata table Hudi left
   * enabled is turned off ({@link #disableMetadataTable}). Every table operation that writes
   * (write, compaction, rollback) starts with it. Returns the table with the config as stored.
   *
   * @throws io.riverbed.format.CorruptFileException if {@code hoodie.properties} is damaged and no
   *     intact backup exists (nothing is deleted then)
   * @throws InvalidTableException for a table Riverbed does not write (another table version), before any change
   */
  public Table prepareForWrite() {
    config.requireSupported(basePath); // before the recovery, which may write: a table of another version stays untouched
    TableConfig recovered = TableConfigFile.recover(fs, metaPath());
    recovered.requireSupported(basePath);
    return new Table(fs, basePath, recovered, timelineStore).disableMetadataTable();
  }

  /**
   * Turns the metadata table off as Hudi does when a writer disables it: both
   * {@code hoodie.table.metadata.partitions} keys set to empty via the safe update, then
   * {@code .hoodie/metadata} deleted. Readers then list files. A table without a metadata table
   * is returned unchanged.
   */
  public Table disableMetadataTable() {
    Path mdt = metadataTablePath();
    boolean folderExists;
    try {
      folderExists = fs.exists(mdt);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check " + mdt, e);
    }
    boolean configured = !config.metadataPartitions().isEmpty()
        || !config.metadataPartitionsInflight().isEmpty();
    if (!configured && !folderExists) {
      return this;
    }
    Table result = this;
    if (configured) {
      var changes = new LinkedHashMap<String, String>();
      changes.put(TableProperty.METADATA_PARTITIONS.key(), "");
      changes.put(TableProperty.METADATA_PARTITIONS_INFLIGHT.key(), "");
      result = updateConfig(changes);
    }
    try {
      if (folderExists && !fs.delete(mdt, true)) {
        throw new TableException("cannot delete metadata table " + mdt + " of table " + basePath);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete metadata table " + mdt, e);
    }
    LOG.info("Disabled the metadata table of {} (was: {})", basePath, config.metadataPartitions());
    return result;
  }

  @Override
  public String toString() {
    return "Table[" + config.get(TableProperty.NAME).orElse("?") + " at " + basePath + "]";
  }
}
