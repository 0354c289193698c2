package io.riverbed.format.archive;

import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.options.IntegerOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When archival runs and how much it moves, read from a map with Hudi's key names:
 * {@link #fromMap} takes Hudi's writer keys and defaults ({@code HoodieArchivalConfig}),
 * {@link #fromFlinkMap} Hudi's Flink option names and their defaults ({@code FlinkOptions}).
 *
 * @param minCommitsToKeep {@value #MIN_COMMITS}: completed commits an archival leaves active
 * @param maxCommitsToKeep {@value #MAX_COMMITS}: completed commits above which archival runs
 * @param compactionDeltaCommits {@value #COMPACTION_DELTA_COMMITS}: MERGE_ON_READ keeps the delta
 *     commits since the last compaction while there are fewer than this, so compaction scheduling
 *     still counts them (Hudi's {@code CompactionUtils.getOldestInstantToRetainForCompaction})
 * @param maxInstantsPerRun {@value #MAX_INSTANTS_PER_RUN}: instants one run archives at most, so a
 *     large backlog is worked off over several runs instead of stalling one
 * @param timelineCompactionBatchSize {@value #TIMELINE_COMPACTION_BATCH_SIZE}: table version 8, the files of
 *     one layer of the LSM history that are merged into one file of the next layer (Hudi 1.x's default 10)
 * @param consumers how long a registered consumer holds archival back ({@link ConsumerOptions#EXPIRATION},
 *     read from the same map)
 */
public record ArchiveOptions(int minCommitsToKeep, int maxCommitsToKeep, int compactionDeltaCommits,
    int maxInstantsPerRun, int timelineCompactionBatchSize, ConsumerOptions consumers) {

  public static final String MIN_COMMITS = "hoodie.keep.min.commits";
  public static final String MAX_COMMITS = "hoodie.keep.max.commits";
  public static final String COMPACTION_DELTA_COMMITS = "hoodie.compact.inline.max.delta.commits";
  public static final String MAX_INSTANTS_PER_RUN = "riverbed.archive.max.instants.per.run";
  public static final String TIMELINE_COMPACTION_BATCH_SIZE = "hoodie.timeline.compaction.batch.size";

  /** Hudi's Flink names; each falls back to the writer key above when absent. */
  public static final String FLINK_MIN_COMMITS = "archive.min_commits";
  public static final String FLINK_MAX_COMMITS = "archive.max_commits";
  static final String FLINK_COMPACTION_DELTA_COMMITS = "compaction.delta_commits";

  /** Each option's key → {default, description}, for documentation; Flink names included. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public ArchiveOptions {
    java.util.Objects.requireNonNull(consumers, "consumers");
    if (minCommitsToKeep < 1 || maxCommitsToKeep <= minCommitsToKeep || compactionDeltaCommits < 1
        || maxInstantsPerRun < 1 || timelineCompactionBatchSize < 2) {
      throw new IllegalArgumentException("archival needs 1 <= " + MIN_COMMITS + " < " + MAX_COMMITS + ", "
          + COMPACTION_DELTA_COMMITS + " >= 1, " + MAX_INSTANTS_PER_RUN + " >= 1 and " + TIMELINE_COMPACTION_BATCH_SIZE
          + " >= 2; got " + minCommitsToKeep + ", " + maxCommitsToKeep + ", " + compactionDeltaCommits + ", "
          + maxInstantsPerRun + ", " + timelineCompactionBatchSize);
    }
  }

  /** Hudi's writer defaults: archive down to 20 commits once more than 30 are active. */
  public static ArchiveOptions defaults() {
    return fromMap(Map.of());
  }

  /** From Hudi's writer keys ({@code hoodie.keep.*}). */
  public static ArchiveOptions fromMap(Map<String, String> conf) {
    return new ArchiveOptions(
        integer(conf, MIN_COMMITS, null, 20),
        integer(conf, MAX_COMMITS, null, 30),
        integer(conf, COMPACTION_DELTA_COMMITS, null, 5),
        integer(conf, MAX_INSTANTS_PER_RUN, null, 500),
        integer(conf, TIMELINE_COMPACTION_BATCH_SIZE, null, 10),
        ConsumerOptions.fromMap(conf));
  }

  /**
   * From Hudi's Flink option names ({@code archive.min_commits}, {@code archive.max_commits},
   * {@code compaction.delta_commits}) with the Flink defaults (40 and 50); a Flink name that is
   * absent falls back to its writer key, then to the Flink default.
   */
  public static ArchiveOptions fromFlinkMap(Map<String, String> conf) {
    return new ArchiveOptions(
        integer(conf, FLINK_MIN_COMMITS, MIN_COMMITS, 40),
        integer(conf, FLINK_MAX_COMMITS, MAX_COMMITS, 50),
        integer(conf, FLINK_COMPACTION_DELTA_COMMITS, COMPACTION_DELTA_COMMITS, 5),
        integer(conf, MAX_INSTANTS_PER_RUN, null, 500),
        integer(conf, TIMELINE_COMPACTION_BATCH_SIZE, null, 10),
        ConsumerOptions.fromMap(conf));
  }

  private static int integer(Map<String, String> conf, String key, String fallbackKey, int defaultValue) {
    return IntegerOption.read(conf, key, fallbackKey, defaultValue);
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(MIN_COMMITS, new String[] {"20", "Completed commits (commit, deltacommit, replacecommit) an archival leaves "
        + "in the active timeline; also the clean and rollback instants kept per action. Keep it above the cleaner's "
        + "retained commits, as Hudi requires."});
    d.put(MAX_COMMITS, new String[] {"30", "Archival runs once the active timeline holds more completed commits (or "
        + "more cleans, or rollbacks) than this, and moves the oldest into .hoodie/archived/ down to "
        + MIN_COMMITS + "."});
    d.put(COMPACTION_DELTA_COMMITS, new String[] {"5", "MERGE_ON_READ: while fewer delta commits than this completed "
        + "since the last compaction, they stay active (compaction scheduling counts them)."});
    d.put(MAX_INSTANTS_PER_RUN, new String[] {"500", "Riverbed: instants one archival run moves at most (each with "
        + "its requested and inflight files); a longer backlog is archived over the following runs."});
    d.put(TIMELINE_COMPACTION_BATCH_SIZE, new String[] {"10", "Table version 8: once a layer of the LSM history "
        + "(.hoodie/timeline/history/) holds this many files, archival merges them into one file of the next layer, "
        + "as Hudi 1.x does."});
    d.put(FLINK_MIN_COMMITS, new String[] {"40", "Hudi's Flink name of " + MIN_COMMITS + ", with Hudi's Flink default "
        + "(ArchiveOptions.fromFlinkMap; falls back to " + MIN_COMMITS + "). The Flink job archives after its commits "
        + "unless hoodie.archive.automatic is false."});
    d.put(FLINK_MAX_COMMITS, new String[] {"50", "Hudi's Flink name of " + MAX_COMMITS + ", with Hudi's Flink default "
        + "(falls back to " + MAX_COMMITS + ")."});
    return Collections.unmodifiableMap(d);
  }
}
