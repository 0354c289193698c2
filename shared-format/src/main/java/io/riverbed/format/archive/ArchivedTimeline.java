package io.riverbed.format.archive;

import io.riverbed.format.history.LsmInstantRow;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

import io.riverbed.format.TableException;
import io.riverbed.format.log.AvroDataBlock;
import io.riverbed.format.log.LogBlock;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineSchemas;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The archived timeline of a table: the instants stored in {@code .hoodie/archived/} as Hudi's
 * {@code HoodieArchivedTimeline} reads them, from every {@code .commits_.archive.N_<token>} log
 * file (Avro data blocks of {@code HoodieArchivedMetaEntry}). An instant archived twice (an
 * archival that crashed before deleting the active files and ran again) is listed once.
 *
 * <p>Reading it lists and reads every archive file: for operators and tests, not for the query
 * path, which needs only the active timeline (instants older than its start count as committed;
 * incremental queries reaching before it read only the active commits, as Hudi 0.15's do).
 */
public final class ArchivedTimeline {
  /** Hudi's archive file names: {@code .commits_.archive.<version>} with an optional write token. */
  static final Pattern ARCHIVE_FILE = Pattern.compile("^\\.commits_\\.archive\\.([0-9]+).*");

  private final List<Instant> instants;
  private final Map<String, String> completionTimes;
  private final Map<String, byte[]> metadata;

  private ArchivedTimeline(List<Instant> instants, Map<String, String> completionTimes, Map<String, byte[]> metadata) {
    this.instants = instants;
    this.completionTimes = completionTimes;
    this.metadata = metadata;
  }

  /**
   * Reads every archive file of {@code table}.
   *
   * <p>On a table version 8: the instants of Hudi 1.x's LSM history ({@code .hoodie/timeline/history/}),
   * the files its latest manifest names, each completed with its completion time.
   */
  public static ArchivedTimeline load(Table table) {
    if (isLsmHistory(table)) {
      TreeSet<Instant> found = new TreeSet<>();
      Map<String, String> completionTimes = new HashMap<>();
      Map<String, byte[]> metadata = new HashMap<>();
      for (GenericRecord row : HistoryArchival.historyOf(table).readAll()) {
        LsmInstantRow.fromRecord(row).ifPresent(r -> {
          found.add(r.instant());
          if (r.completionTime() != null) {
            completionTimes.put(r.instantTime(), r.completionTime());
          }
          if (r.metadata() != null) {
            metadata.put(r.instantTime() + "|" + r.action().word(), r.metadata());
          }
        });
      }
      return new ArchivedTimeline(List.copyOf(found), Map.copyOf(completionTimes), Map.copyOf(metadata));
    }
    TreeSet<Instant> found = new TreeSet<>();
    forEachEntry(table.fs(), table.archivePath(), r -> ArchivedEntries.instantOf(r).ifPresent(found::add));
    return new ArchivedTimeline(List.copyOf(found), Map.of(), Map.of());
  }

  /** Every {@code HoodieArchivedMetaEntry} of the archive files in {@code folder}, oldest file first. */
  static void forEachEntry(FileSystem fs, Path folder, Consumer<GenericRecord> action) {
    for (FileStatus file : archiveFiles(fs, folder)) {
      try (LogFileReader reader = LogFileReader.open(fs, file.getPath(), file.getLen())) {
        while (reader.hasNext()) {
          LogBlock block = reader.next();
          if (block instanceof AvroDataBlock data) {
            data.forEachRecord(TimelineSchemas.ARCHIVED_META_ENTRY, action);
          }
        }
      }
    }
  }

  /** Whether anything was ever archived: one listing of the archive folder, no file read. */
  public static boolean exists(Table table) {
    if (isLsmHistory(table)) {
      return hasLsmFiles(table);
    }
    return !archiveFiles(table).isEmpty();
  }

  private static boolean isLsmHistory(Table table) {
    return table.config().timelineLayoutVersion() >= 2;
  }

  /** Whether Hudi 1.x's LSM history's latest snapshot names any data file. */
  private static boolean hasLsmFiles(Table table) {
    return HistoryArchival.historyOf(table).hasInstants();
  }

  /** Every archived state (requested, inflight, completed) of every archived instant, in time order. */
  public List<Instant> instants() {
    return instants;
  }

  /**
   * The completed file's bytes an archived completed instant keeps (version 8: the LSM row's
   * {@code metadata}, e.g. commit metadata in version 8's Avro form); empty on version 6, whose
   * archive Riverbed reads for instants only.
   */
  public Optional<byte[]> metadataOf(Instant completed) {
    return Optional.ofNullable(metadata.get(completed.time() + "|" + completed.action().completedAs().word()));
  }

  /** The archived instants as a timeline: one instant per time and action, in its highest state. */
  public Timeline timeline() {
    return Timeline.fromInstants(instants, completionTimes);
  }

  /** The archive files of {@code table}, oldest (lowest version) first. */
  static List<FileStatus> archiveFiles(Table table) {
    return archiveFiles(table.fs(), table.archivePath());
  }

  /** The archive files in {@code folder}, oldest (lowest version) first. */
  static List<FileStatus> archiveFiles(FileSystem fs, Path folder) {
    try {
      List<FileStatus> files = new ArrayList<>();
      for (FileStatus st : fs.listStatus(folder)) {
        if (st.isFile() && version(st.getPath()).isPresent()) {
          files.add(st);
        }
      }
      files.sort(Comparator.comparing((FileStatus st) -> version(st.getPath()).orElseThrow())
          .thenComparing(st -> st.getPath().getName()));
      return files;
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw new TableException("cannot list the archived timeline " + folder, e);
    }
  }

  /** The version of an archive file name, empty for other names. */
  static Optional<Integer> version(Path path) {
    Matcher m = ARCHIVE_FILE.matcher(path.getName());
    return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }
}
