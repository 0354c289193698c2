package io.riverbed.format.archive;

import io.riverbed.format.TableException;
import io.riverbed.format.history.LsmHistory;
import io.riverbed.format.history.LsmHistoryWriter;
import io.riverbed.format.history.LsmInstantRow;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Converts a table's archived timeline between Hudi 0.x's archive ({@code .commits_.archive.N_1-0-1}
 * log files of {@code HoodieArchivedMetaEntry}, table version 6) and Hudi 1.x's LSM history (table
 * version 8), as Hudi 1.0.2's {@code SevenToEightUpgradeHandler.upgradeToLSMTimeline} and
 * {@code EightToSevenDowngradeHandler.downgradeFromLSMTimeline} do:
 *
 * <ul>
 *   <li>{@link #toHistory}: every completed instant of the archive (its states grouped by time and
 *       action) becomes one LSM row, its completion time the completed state's transition time,
 *       commit metadata re-encoded as version 8's Avro, clean/rollback/savepoint metadata and plans
 *       as the Avro files the active timeline holds; written in batches of {@value #BATCH} instants
 *       (Hudi's {@code hoodie.commits.archival.batch}), each a layer-0 file and a manifest version;
 *   <li>{@link #toLegacyArchive}: every LSM row becomes the archive entries of its completed state
 *       (commit metadata as version 6's JSON mapped onto the entry) and, where it has a plan, of its
 *       requested state, in one new archive file.
 * </ul>
 *
 * Both write into the target folder, which the table's current version does not read; the caller
 * switches the table's version afterwards. A rerun after a crash starts from the source again: the
 * history writer skips batches already committed, and the legacy target is emptied first.
 */
public final class LegacyArchiveConversion {
  /** Instants per file written by an upgrade: Hudi's {@code hoodie.commits.archival.batch} default. */
  static final int BATCH = 10;

  private LegacyArchiveConversion() {}

  /**
   * Writes the archive of version 6 table {@code table} ({@link Table#archivePath()}) into the LSM
   * history folder {@code historyFolder}.
   *
   * @return the instants written
   */
  public static int toHistory(Table table, Path historyFolder) {
    Map<String, Map<State, GenericRecord>> byInstant = new TreeMap<>();
    ArchivedTimeline.forEachEntry(table.fs(), table.archivePath(), entry -> ArchivedEntries.instantOf(entry)
        .ifPresent(i -> byInstant.computeIfAbsent(i.time() + "|" + i.action().completedAs().word(),
            k -> new LinkedHashMap<>()).put(i.state(), entry)));
    List<GenericRecord> rows = new ArrayList<>();
    for (Map<State, GenericRecord> states : byInstant.values()) {
      GenericRecord completed = states.get(State.COMPLETED);
      if (completed != null) {
        rows.add(rowOf(table, completed, states).toRecord());
      }
    }
    LsmHistoryWriter writer = LsmHistoryWriter.of(LsmHistory.at(table.fs(), historyFolder));
    for (int from = 0; from < rows.size(); from += BATCH) {
      writer.write(rows.subList(from, Math.min(rows.size(), from + BATCH)));
    }
    return rows.size();
  }

  private static LsmInstantRow rowOf(Table table, GenericRecord completed, Map<State, GenericRecord> states) {
    Instant instant = ArchivedEntries.instantOf(completed).orElseThrow();
    String source = "archived instant " + instant + " of table " + table.basePath();
    Object transition = completed.get("stateTransitionTime");
    String completion = transition == null || transition.toString().isEmpty() ? instant.time() : transition.toString();
    byte[] metadata = switch (instant.action()) {
      case COMMIT, DELTA_COMMIT -> commitBytes(completed.get("hoodieCommitMetadata"), source);
      case REPLACE_COMMIT -> commitBytes(completed.get("hoodieReplaceCommitMetadata"), source);
      case CLEAN -> avroBytes(completed.get("hoodieCleanMetadata"));
      case ROLLBACK -> avroBytes(completed.get("hoodieRollbackMetadata"));
      case SAVEPOINT -> avroBytes(completed.get("hoodieSavePointMetadata"));
      default -> null;
    };
    GenericRecord requested = states.get(State.REQUESTED);
    GenericRecord inflight = states.get(State.INFLIGHT);
    byte[] plan = null;
    if (instant.action() == Action.CLEAN && requested != null) {
      plan = avroBytes(requested.get("hoodieCleanerPlan"));
    } else if (instant.action() == Action.REPLACE_COMMIT) {
      plan = inflight != null ? commitBytes(inflight.get("HoodieInflightReplaceMetadata"), source) : null;
      if (plan == null && requested != null) {
        plan = avroBytes(requested.get("hoodieRequestedReplaceMetadata"));
      }
    } else {
      for (GenericRecord pending : new GenericRecord[] {requested, inflight}) {
        if (plan == null && pending != null && pending.get("hoodieCompactionPlan") != null) {
          plan = avroBytes(pending.get("hoodieCompactionPlan"));
        }
      }
    }
    return new LsmInstantRow(instant.time(), completion, instant.action(), metadata, plan);
  }

  private static byte[] commitBytes(Object nested, String source) {
    if (nested == null) {
      return null;
    }
    return CommitMetadata.parse(AvroTimelineFile.serialize((GenericRecord) nested), source).toAvroBytes();
  }

  private static byte[] avroBytes(Object nested) {
    return nested == null ? null : AvroTimelineFile.serialize((GenericRecord) nested);
  }

  /**
   * Writes the LSM history of version 8 table {@code table} as one Hudi 0.x archive file in
   * {@code legacyFolder}, after deleting the archive files a crashed earlier run left there.
   *
   * @return the instants written
   */
  public static int toLegacyArchive(Table table, Path legacyFolder) {
    deleteArchiveFiles(table, legacyFolder);
    List<LsmInstantRow> rows = new ArrayList<>();
    for (GenericRecord r : HistoryArchival.historyOf(table).readAll()) {
      LsmInstantRow.fromRecord(r).ifPresent(rows::add);
    }
    rows.sort((a, b) -> a.instantTime().compareTo(b.instantTime()));
    List<GenericRecord> entries = new ArrayList<>();
    Map<String, Boolean> seen = new LinkedHashMap<>();
    for (LsmInstantRow row : rows) {
      if (seen.put(row.instantTime() + "|" + row.action().word(), true) != null) {
        continue;
      }
      String source = "LSM history instant " + row.instant() + " of table " + table.basePath();
      requestedOf(row).ifPresent(requested ->
          entries.add(ArchivedEntries.toEntry(requested, row.plan(), Optional.empty(), row.instantTime(), source)));
      byte[] content = row.metadata() == null ? new byte[0] : row.metadata();
      if (content.length > 0 && isCommit(row.action())) {
        content = CommitMetadata.parse(content, source).toJsonBytes();
      }
      Optional<byte[]> plan = Optional.ofNullable(row.plan());
      entries.add(ArchivedEntries.toEntry(row.instant(), content, plan, row.completionTime(), source));
    }
    if (entries.isEmpty()) {
      return 0;
    }
    Archiver.writeArchiveFile(table, legacyFolder, entries);
    return rows.size();
  }

  /** The requested state an LSM row's plan stands for, by the plan's record: clean plan, requested replace, compaction plan. */
  private static Optional<Instant> requestedOf(LsmInstantRow row) {
    if (row.plan() == null) {
      return Optional.empty();
    }
    String record;
    try {
      record = AvroTimelineFile.deserialize(row.plan(), null, "plan").map(r -> r.getSchema().getName()).orElse("");
    } catch (RuntimeException e) {
      return Optional.empty(); // a replacecommit's inflight commit metadata, not an Avro plan
    }
    Optional<Action> pending = switch (record) {
      case "HoodieCleanerPlan" -> Optional.of(Action.CLEAN);
      case "HoodieRequestedReplaceMetadata" -> Optional.of(Action.REPLACE_COMMIT);
      case "HoodieCompactionPlan" -> Optional.of(row.action() == Action.DELTA_COMMIT ? Action.LOG_COMPACTION
          : Action.COMPACTION);
      default -> Optional.empty();
    };
    return pending.map(a -> Instant.requested(row.instantTime(), a));
  }

  private static boolean isCommit(Action action) {
    return action == Action.COMMIT || action == Action.DELTA_COMMIT || action == Action.REPLACE_COMMIT;
  }

  /** Deletes the Hudi 0.x archive files in {@code folder}. */
  public static void deleteArchiveFiles(Table table, Path folder) {
    for (FileStatus st : ArchivedTimeline.archiveFiles(table.fs(), folder)) {
      try {
        table.fs().delete(st.getPath(), false);
      } catch (IOException e) {
        throw new TableException("cannot delete archive file " + st.getPath() + " of table " + table.basePath(), e);
      }
    }
  }
}
