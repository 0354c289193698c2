package io.riverbed.format.upgrade;

import io.riverbed.format.TableException;
import io.riverbed.format.TableOperation;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.archive.LegacyArchiveConversion;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableProperty;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.Rollback;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upgrades a table from version 6 to 8, or downgrades it from 8 to 6, as Hudi 1.x's
 * {@code SixToEightUpgradeHandler} and its {@code EightToSeven}/{@code SevenToSix} downgrade
 * handlers do: failed writes rolled back; on MERGE_ON_READ, pending compactions run and then one
 * compaction of every file group with log files (so the latest slices hold no log file named in the
 * other version's way); the active timeline moved between {@code .hoodie/} and
 * {@code .hoodie/timeline/} ({@link TimelineLayoutMove}); then {@code hoodie.properties} changed to
 * the other version's keys (layout, timeline paths, initial version, merge mode, key generator type).
 *
 * <p>The config change is the switch: a crash before it leaves the table in its version with a copy
 * of the timeline that its readers ignore; a crash after it leaves source files the new layout's
 * readers ignore, and a rerun removes them. Writers of the table must be stopped (as for Hudi's
 * upgrade, which runs inside one writer). The archived timeline is converted before the switch, as
 * Hudi 1.0.2's handlers convert it ({@link LegacyArchiveConversion}): Hudi 0.x's archive into the LSM
 * history {@code .hoodie/timeline/history/} on the way up (the archive is deleted after the switch),
 * the history into one archive file in {@code .hoodie/<hoodie.archivelog.folder>} on the way down.
 */
public final class TableVersionChange implements TableOperation<TableVersionChange.Result> {
  private static final Logger LOG = LoggerFactory.getLogger(TableVersionChange.class);
  private static final String INITIAL_VERSION_SIX = "SIX";

  private final Table table;
  private final int targetVersion;

  /**
   * What the change did.
   *
   * @param fromVersion the table's version before
   * @param toVersion the table's version now
   * @param rolledBack the failed writes rolled back
   * @param compactions the compactions run
   * @param timelineFiles the timeline files moved into the new layout
   * @param archivedInstants the archived instants converted into the new version's archived timeline
   */
  public record Result(int fromVersion, int toVersion, List<String> rolledBack, List<String> compactions,
      int timelineFiles, int archivedInstants) {}

  private TableVersionChange(Table table, int targetVersion) {
    this.table = table;
    this.targetVersion = targetVersion;
  }

  /**
   * The change of {@code table} to {@code targetVersion}.
   *
   * @throws IllegalArgumentException for a version other than 6 or 8
   */
  public static TableVersionChange of(Table table, int targetVersion) {
    Objects.requireNonNull(table, "table");
    if (targetVersion != TableConfig.VERSION_6 && targetVersion != TableConfig.VERSION_8) {
      throw new IllegalArgumentException("table " + table.basePath() + ": cannot change to table version "
          + targetVersion + "; Riverbed upgrades and downgrades between versions 6 and 8");
    }
    return new TableVersionChange(table, targetVersion);
  }

  /**
   * Changes the version; a table already at it only loses the other layout's leftovers of an
   * interrupted change.
   *
   * @throws TableException naming the table when instants stay pending after the failed writes were rolled back and the compactions run
   */
  @Override
  public Result execute() {
    Table prepared = table.prepareForWrite();
    int from = prepared.config().version();
    if (from == targetVersion) {
      int leftovers = removeLeftovers(prepared);
      LOG.info("Table {} has table version {} already ({} leftover timeline files removed)", prepared.basePath(),
          from, leftovers);
      return new Result(from, from, List.of(), List.of(), 0, 0);
    }
    List<String> rolledBack = Rollback.rollbackFailedWrites(prepared).stream()
        .flatMap(m -> m.commitsRollback().stream()).toList();
    List<String> compactions = compactEverything(prepared);
    Timeline timeline = prepared.refreshTimeline();
    if (!timeline.pending().isEmpty()) {
      throw new TableException("cannot change table " + prepared.basePath() + " from version " + from + " to "
          + targetVersion + ": instants " + timeline.pending().instants() + " are pending; finish them (clean, "
          + "rollback, restore) and run the change again");
    }
    TimelineStore targetStore = TimelineStore.at(prepared.fs(), timelinePath(prepared, targetVersion),
        layoutOf(targetVersion), prepared.config().timelineTimezone().zoneId());
    var move = new TimelineLayoutMove(prepared.fs(), prepared.timelinePath(), prepared.config().timelineLayoutVersion(),
        targetStore, prepared.tempPath(), prepared.config().timelineTimezone().zoneId());
    int moved = move.copy();
    Path legacyArchive = legacyArchivePath(prepared);
    int archived;
    if (targetVersion == TableConfig.VERSION_8) {
      Path history = new Path(targetStore.metaPath(), TableProperty.TIMELINE_HISTORY_PATH.defaultValue());
      mkdirs(prepared, history);
      archived = LegacyArchiveConversion.toHistory(prepared, history);
    } else {
      archived = LegacyArchiveConversion.toLegacyArchive(prepared, legacyArchive);
    }
    prepared.updateConfig(configChanges(prepared.config(), targetVersion));
    move.deleteSources();
    if (targetVersion == TableConfig.VERSION_6) {
      deleteFolder(prepared, prepared.timelinePath());
    } else {
      LegacyArchiveConversion.deleteArchiveFiles(prepared, legacyArchive);
    }
    LOG.info("Changed table {} from version {} to {}: {} failed writes rolled back, compactions {}, {} timeline files "
        + "moved, {} archived instants converted", prepared.basePath(), from, targetVersion, rolledBack.size(),
        compactions, moved, archived);
    return new Result(from, targetVersion, rolledBack, compactions, moved, archived);
  }

  /** MERGE_ON_READ: every pending compaction, then one of every file group with log files, as Hudi's handlers run. */
  private static List<String> compactEverything(Table table) {
    if (table.type() != TableType.MERGE_ON_READ) {
      return List.of();
    }
    List<String> run = new ArrayList<>();
    for (Instant pending : table.refreshTimeline().pendingCompactions().instants()) {
      CompactionRunner.of(table, pending.time()).execute();
      run.add(pending.time());
    }
    CompactionScheduler.of(table).execute().instantTime().ifPresent(c -> {
      CompactionRunner.of(table, c).execute();
      run.add(c);
    });
    return run;
  }

  /** The keys of {@code target}'s version, from the keys of the other one. */
  static Map<String, String> configChanges(TableConfig config, int target) {
    Map<String, String> changes = new HashMap<>();
    changes.put(TableProperty.VERSION.key(), String.valueOf(target));
    if (target == TableConfig.VERSION_8) {
      changes.put(TableProperty.TIMELINE_LAYOUT_VERSION.key(), String.valueOf(TableConfig.TIMELINE_LAYOUT_VERSION_2));
      changes.put(TableProperty.TIMELINE_PATH.key(), TableProperty.TIMELINE_PATH.defaultValue());
      changes.put(TableProperty.TIMELINE_HISTORY_PATH.key(), TableProperty.TIMELINE_HISTORY_PATH.defaultValue());
      changes.put(TableProperty.INITIAL_VERSION.key(), INITIAL_VERSION_SIX);
      changes.putAll(TableConfig.mergeKeysOf(config.payloadClass()));
      config.keyGeneratorClass().ifPresent(c -> changes.put(TableProperty.KEY_GENERATOR_TYPE.key(),
          TableConfig.keyGeneratorTypeOfClass(c)));
    } else {
      changes.put(TableProperty.TIMELINE_LAYOUT_VERSION.key(), String.valueOf(TableConfig.TIMELINE_LAYOUT_VERSION));
      changes.put(TableProperty.PAYLOAD_CLASS.key(), config.payloadClass());
      changes.put(TableProperty.RECORD_MERGER_STRATEGY.key(), TableConfig.DEFAULT_MERGER_STRATEGY);
      config.keyGeneratorClass().ifPresent(c -> changes.put(TableProperty.KEY_GENERATOR_CLASS.key(), c));
      for (TableProperty versionEightOnly : List.of(TableProperty.TIMELINE_PATH, TableProperty.TIMELINE_HISTORY_PATH,
          TableProperty.INITIAL_VERSION, TableProperty.RECORD_MERGE_MODE, TableProperty.RECORD_MERGE_STRATEGY_ID,
          TableProperty.KEY_GENERATOR_TYPE)) {
        changes.put(versionEightOnly.key(), null);
      }
    }
    return changes;
  }

  /** Hudi 0.x's archive folder of {@code table}: {@code .hoodie/<hoodie.archivelog.folder>}. */
  private static Path legacyArchivePath(Table table) {
    return new Path(table.metaPath(), table.config().archiveLogFolder());
  }

  /**
   * Removes the other layout's timeline files an interrupted change left behind; on version 8 also
   * Hudi 0.x's archive once the LSM history holds the converted instants.
   */
  private static int removeLeftovers(Table table) {
    int version = table.config().version();
    if (version == TableConfig.VERSION_8 && ArchivedTimeline.exists(table)
        && !legacyArchivePath(table).equals(table.archivePath())) {
      LegacyArchiveConversion.deleteArchiveFiles(table, legacyArchivePath(table));
    }
    int otherVersion = version == TableConfig.VERSION_8 ? TableConfig.VERSION_6 : TableConfig.VERSION_8;
    Path other = timelinePath(table, otherVersion);
    int removed = 0;
    try {
      if (!table.fs().exists(other)) {
        return 0;
      }
      for (var status : table.fs().listStatus(other)) {
        String name = status.getPath().getName();
        boolean instantFile = otherVersion == TableConfig.VERSION_8 ? Instant.parseFileNameV2(name).isPresent()
            : Instant.parseFileName(name).isPresent();
        if (status.isFile() && instantFile) {
          table.fs().delete(status.getPath(), false);
          removed++;
        }
      }
      if (version == TableConfig.VERSION_6) {
        deleteFolder(table, other);
      }
    } catch (IOException e) {
      throw new TableException("cannot remove the leftovers of a version change in " + other, e);
    }
    return removed;
  }

  private static Path timelinePath(Table table, int version) {
    return version == TableConfig.VERSION_8
        ? new Path(table.metaPath(), TableProperty.TIMELINE_PATH.defaultValue()) : table.metaPath();
  }

  private static int layoutOf(int version) {
    return version == TableConfig.VERSION_8 ? TableConfig.TIMELINE_LAYOUT_VERSION_2 : TableConfig.TIMELINE_LAYOUT_VERSION;
  }

  private static void mkdirs(Table table, Path folder) {
    try {
      table.fs().mkdirs(folder);
    } catch (IOException e) {
      throw new TableException("cannot create " + folder + " of table " + table.basePath(), e);
    }
  }

  private static void deleteFolder(Table table, Path folder) {
    try {
      table.fs().delete(folder, true);
    } catch (IOException e) {
      throw new TableException("cannot delete " + folder + " of table " + table.basePath(), e);
    }
  }
}
