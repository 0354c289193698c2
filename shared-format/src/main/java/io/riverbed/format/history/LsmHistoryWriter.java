package io.riverbed.format.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.avro.generic.GenericRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds instants to Hudi 1.x's LSM history and keeps it small, step for step as Hudi 1.0.2's
 * {@code LSMTimelineWriter}:
 *
 * <ul>
 *   <li>{@link #write}: the rows go into a layer-0 file named by the first and last instant's
 *       requested time, then a new manifest version adds it. A rerun that finds the file already
 *       named by the latest manifest skips it (the earlier run crashed after committing it); a file
 *       no manifest names is a crashed run's leftover and is written again;
 *   <li>{@link #compactAndClean}: while a layer holds at least {@code batchSize} files, its oldest
 *       files (at most {@code batchSize}, together at most {@value #TARGET_FILE_MAX_BYTES} bytes, at
 *       least two) are merged into one file of the next layer and a manifest version replaces them;
 *       then every manifest but the latest {@value #RETAINED_VERSIONS} plus one per compaction, and
 *       every data file none of the kept manifests names, is deleted (manifests first).
 * </ul>
 *
 * <p>{@link #checkpoints} names each step as it completes (for failure tests: an exception thrown
 * there stands for a crash right after the step).
 */
public final class LsmHistoryWriter {
  private static final Logger LOG = LoggerFactory.getLogger(LsmHistoryWriter.class);
  /** Snapshot versions kept for readers after a compaction, besides one per compaction (Hudi 1.0.2's constant). */
  public static final int RETAINED_VERSIONS = 3;
  /** Bytes a compaction's sources add up to at most (Hudi's {@code hoodie.timeline.compaction.target.file.max.bytes} default). */
  public static final long TARGET_FILE_MAX_BYTES = 1024L * 1024 * 1024;
  /** After a layer-0 file is written, before a manifest names it. */
  public static final String FILE_WRITTEN = "lsm.file-written";
  /** After the manifest that adds the layer-0 file is written, before {@code _version_} names it. */
  public static final String MANIFEST_WRITTEN = "lsm.manifest-written";
  /** After a compaction's file is written, before a manifest replaces its sources. */
  public static final String COMPACTED_FILE_WRITTEN = "lsm.compacted-file-written";
  /** After the manifest of a compaction is committed, before old versions are cleaned. */
  public static final String COMPACTION_COMMITTED = "lsm.compaction-committed";

  private final LsmHistory history;
  private Consumer<String> checkpoints = step -> { };

  private LsmHistoryWriter(LsmHistory history) {
    this.history = history;
  }

  public static LsmHistoryWriter of(LsmHistory history) {
    return new LsmHistoryWriter(Objects.requireNonNull(history, "history"));
  }

  /** Called with each step's name as it completes (failure tests). */
  public LsmHistoryWriter checkpoints(Consumer<String> hook) {
    this.checkpoints = Objects.requireNonNull(hook, "hook");
    return this;
  }

  /**
   * Adds {@code rows} (in requested-time order) as one layer-0 file.
   *
   * @return the file's name; written now or by an earlier run that committed it
   */
  public String write(List<GenericRecord> rows) {
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("no instants to add to the LSM history " + history.folder());
    }
    String name = LsmFileName.layerZero(time(rows.get(0)), time(rows.get(rows.size() - 1))).fileName();
    int version = history.latestVersion();
    LsmManifest latest = history.manifest(version);
    if (latest.fileNames().contains(name)) {
      LOG.info("LSM history {} holds {} already (an earlier archival committed it)", history.folder(), name);
      return name;
    }
    history.write(name, rows);
    checkpoints.accept(FILE_WRITTEN);
    commit(latest, version, List.of(), name, MANIFEST_WRITTEN);
    LOG.info("Added {} instants to LSM history {} as {}", rows.size(), history.folder(), name);
    return name;
  }

  /**
   * Compacts every layer that holds {@code batchSize} files or more, layer after layer, then cleans
   * the versions and files no retained version needs.
   *
   * @return the compacted files written, lowest layer first
   */
  public List<String> compactAndClean(int batchSize) {
    if (batchSize < 2) {
      throw new IllegalArgumentException("LSM history " + history.folder() + ": compaction batch size " + batchSize
          + " < 2");
    }
    List<String> written = new ArrayList<>();
    for (int layer = 0; ; layer++) {
      int version = history.latestVersion();
      LsmManifest manifest = history.manifest(version);
      final int current = layer;
      List<LsmManifest.FileEntry> files = new ArrayList<>(manifest.files().stream()
          .filter(f -> LsmFileName.parse(f.fileName()).map(n -> n.layer() == current).orElse(false)).toList());
      if (files.size() < batchSize) {
        break;
      }
      files.sort((a, b) -> a.fileName().compareTo(b.fileName()));
      List<String> sources = candidates(files, batchSize);
      if (sources.size() < 2) {
        break;
      }
      String target = LsmFileName.compactionOf(sources.stream().map(n -> LsmHistory.nameOf(n, history.folder()))
          .toList()).fileName();
      List<GenericRecord> rows = new ArrayList<>();
      sources.forEach(s -> rows.addAll(history.read(s)));
      history.write(target, rows);
      checkpoints.accept(COMPACTED_FILE_WRITTEN);
      commit(manifest, version, sources, target, null);
      checkpoints.accept(COMPACTION_COMMITTED);
      LOG.info("Compacted LSM history {}: {} into {}", history.folder(), sources, target);
      written.add(target);
    }
    clean(written.size());
    return written;
  }

  /** Hudi's candidate choice: consecutive files from the oldest, up to the batch size and the byte bound. */
  private static List<String> candidates(List<LsmManifest.FileEntry> files, int batchSize) {
    List<String> candidates = new ArrayList<>();
    long total = 0;
    for (LsmManifest.FileEntry f : files) {
      total += f.fileLen();
      candidates.add(f.fileName());
      if (candidates.size() >= batchSize) {
        break;
      }
      if (total > TARGET_FILE_MAX_BYTES) {
        if (candidates.size() < 2) {
          total = 0;
          candidates.clear();
        } else {
          break;
        }
      }
    }
    return candidates;
  }

  /**
   * Keeps the latest {@value #RETAINED_VERSIONS} + {@code compactions} versions: older manifests are
   * deleted, then every data file none of the kept manifests names.
   */
  void clean(int compactions) {
    List<Integer> versions = new ArrayList<>(history.versions());
    int keep = RETAINED_VERSIONS + compactions;
    if (versions.size() <= keep) {
      return;
    }
    versions.sort((a, b) -> b - a);
    List<Integer> kept = versions.subList(0, keep);
    Set<String> keptFiles = new HashSet<>();
    kept.forEach(v -> keptFiles.addAll(history.manifest(v).fileNames()));
    for (int v : versions.subList(keep, versions.size())) {
      history.deleteIfExists(history.pathOf(LsmFileName.manifest(v)));
    }
    for (String file : history.dataFilesOnStorage()) {
      if (!keptFiles.contains(file)) {
        history.deleteIfExists(history.pathOf(file));
      }
    }
    LOG.debug("Cleaned LSM history {}: kept versions {}", history.folder(), kept);
  }

  private void commit(LsmManifest base, int version, List<String> removed, String added, String afterManifest) {
    LsmManifest next = base.replace(removed, history.entryOf(added));
    history.commit(next, version, afterManifest == null ? () -> { } : () -> checkpoints.accept(afterManifest));
  }

  private static String time(GenericRecord row) {
    Object t = row.get("instantTime");
    if (t == null) {
      throw new IllegalArgumentException("an LSM history row without instantTime: " + row);
    }
    return t.toString();
  }
}
