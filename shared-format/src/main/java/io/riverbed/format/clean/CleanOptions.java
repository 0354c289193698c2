package io.riverbed.format.clean;

import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.options.IntegerOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a clean keeps and when one is planned, read from a map with Hudi's key names:
 * {@link #fromMap} takes Hudi's writer keys and defaults ({@code HoodieCleanConfig}),
 * {@link #fromFlinkMap} Hudi's Flink option names and their defaults ({@code FlinkOptions}).
 *
 * @param policy {@value #POLICY}
 * @param commitsRetained {@value #COMMITS_RETAINED}: completed commits whose files stay readable
 * @param hoursRetained {@value #HOURS_RETAINED}: hours of commits whose files stay readable
 * @param fileVersionsRetained {@value #FILE_VERSIONS_RETAINED}: slices kept per file group
 * @param incremental {@value #INCREMENTAL_MODE}: scan only the partitions written since the last
 *     clean's earliest retained instant (the commit-based policies)
 * @param minCommitsBetweenCleans {@value #MAX_COMMITS}: completed commits since the last clean
 *     before a new clean is planned
 * @param consumers how long a registered consumer holds cleaning back ({@link ConsumerOptions#EXPIRATION},
 *     read from the same map)
 */
public record CleanOptions(
    CleaningPolicy policy, int commitsRetained, int hoursRetained, int fileVersionsRetained, boolean incremental,
    int minCommitsBetweenCleans, ConsumerOptions consumers) {

  public static final String POLICY = "hoodie.cleaner.policy";
  public static final String COMMITS_RETAINED = "hoodie.cleaner.commits.retained";
  public static final String HOURS_RETAINED = "hoodie.cleaner.hours.retained";
  public static final String FILE_VERSIONS_RETAINED = "hoodie.cleaner.fileversions.retained";
  public static final String INCREMENTAL_MODE = "hoodie.cleaner.incremental.mode";
  public static final String MAX_COMMITS = "hoodie.clean.max.commits";

  /** Hudi's Flink names; each falls back to the writer key above when absent. */
  public static final String FLINK_POLICY = "clean.policy";
  public static final String FLINK_RETAIN_COMMITS = "clean.retain_commits";
  public static final String FLINK_RETAIN_HOURS = "clean.retain_hours";
  public static final String FLINK_RETAIN_FILE_VERSIONS = "clean.retain_file_versions";

  /** Each option's key → {default, description}, for documentation; Flink names included. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public CleanOptions {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(consumers, "consumers");
    if (commitsRetained < 1 || hoursRetained < 0 || fileVersionsRetained < 1 || minCommitsBetweenCleans < 1) {
      throw new IllegalArgumentException("cleaning needs " + COMMITS_RETAINED + " >= 1, " + HOURS_RETAINED + " >= 0, "
          + FILE_VERSIONS_RETAINED + " >= 1 and " + MAX_COMMITS + " >= 1; got " + commitsRetained + ", "
          + hoursRetained + ", " + fileVersionsRetained + ", " + minCommitsBetweenCleans);
    }
  }

  /** Hudi's writer defaults: keep the last 10 commits. */
  public static CleanOptions defaults() {
    return fromMap(Map.of());
  }

  /** From Hudi's writer keys ({@code hoodie.cleaner.*}, {@code hoodie.clean.*}). */
  public static CleanOptions fromMap(Map<String, String> conf) {
    return new CleanOptions(
        CleaningPolicy.parse(conf.getOrDefault(POLICY, CleaningPolicy.KEEP_LATEST_COMMITS.name())),
        integer(conf, COMMITS_RETAINED, null, 10),
        integer(conf, HOURS_RETAINED, null, 24),
        integer(conf, FILE_VERSIONS_RETAINED, null, 3),
        Boolean.parseBoolean(conf.getOrDefault(INCREMENTAL_MODE, "true").trim()),
        integer(conf, MAX_COMMITS, null, 1),
        ConsumerOptions.fromMap(conf));
  }

  /**
   * From Hudi's Flink option names ({@code clean.policy}, {@code clean.retain_commits}, ...) with
   * the Flink defaults (30 commits, 24 hours, 5 versions); a Flink name that is absent falls back
   * to its writer key, then to the Flink default.
   */
  public static CleanOptions fromFlinkMap(Map<String, String> conf) {
    String policy = conf.getOrDefault(FLINK_POLICY, conf.getOrDefault(POLICY, CleaningPolicy.KEEP_LATEST_COMMITS.name()));
    return new CleanOptions(
        CleaningPolicy.parse(policy),
        integer(conf, FLINK_RETAIN_COMMITS, COMMITS_RETAINED, 30),
        integer(conf, FLINK_RETAIN_HOURS, HOURS_RETAINED, 24),
        integer(conf, FLINK_RETAIN_FILE_VERSIONS, FILE_VERSIONS_RETAINED, 5),
        Boolean.parseBoolean(conf.getOrDefault(INCREMENTAL_MODE, "true").trim()),
        integer(conf, MAX_COMMITS, null, 1),
        ConsumerOptions.fromMap(conf));
  }

  public CleanOptions withPolicy(CleaningPolicy newPolicy) {
    return new CleanOptions(newPolicy, commitsRetained, hoursRetained, fileVersionsRetained, incremental,
        minCommitsBetweenCleans, consumers);
  }

  private static int integer(Map<String, String> conf, String key, String fallbackKey, int defaultValue) {
    return IntegerOption.read(conf, key, fallbackKey, defaultValue);
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(POLICY, new String[] {"KEEP_LATEST_COMMITS", "What a clean keeps: KEEP_LATEST_COMMITS (every file a query "
        + "as of the last " + COMMITS_RETAINED + " completed commits reads), KEEP_LATEST_BY_HOURS (the same for the "
        + "commits of the last " + HOURS_RETAINED + " hours), KEEP_LATEST_FILE_VERSIONS (the newest "
        + FILE_VERSIONS_RETAINED + " slices of each file group). The latest slice of a file group, the slices of a "
        + "pending compaction, files a savepoint names and the slices a live consumer's next read needs ("
        + ConsumerOptions.EXPIRATION + ") are never deleted."});
    d.put(COMMITS_RETAINED, new String[] {"10", "KEEP_LATEST_COMMITS: completed commits whose files stay readable "
        + "(time travel and incremental reads inside them keep working)."});
    d.put(HOURS_RETAINED, new String[] {"24", "KEEP_LATEST_BY_HOURS: hours (of instant time, in the table's timeline "
        + "zone) of commits whose files stay readable."});
    d.put(FILE_VERSIONS_RETAINED, new String[] {"3", "KEEP_LATEST_FILE_VERSIONS: committed slices kept per file group."});
    d.put(INCREMENTAL_MODE, new String[] {"true", "Commit-based policies: list only the partitions that commits since "
        + "the last clean's earliest retained instant wrote; false: list every partition."});
    d.put(MAX_COMMITS, new String[] {"1", "Completed commits since the last clean before a new clean is planned."});
    d.put(FLINK_POLICY, new String[] {"KEEP_LATEST_COMMITS", "Hudi's Flink name of " + POLICY + " (CleanOptions."
        + "fromFlinkMap; falls back to " + POLICY + "). The Flink job cleans after commits unless clean.async.enabled "
        + "is false."});
    d.put(FLINK_RETAIN_COMMITS, new String[] {"30", "Hudi's Flink name of " + COMMITS_RETAINED + ", with Hudi's Flink "
        + "default (falls back to " + COMMITS_RETAINED + ")."});
    d.put(FLINK_RETAIN_HOURS, new String[] {"24", "Hudi's Flink name of " + HOURS_RETAINED + " (falls back to "
        + HOURS_RETAINED + ")."});
    d.put(FLINK_RETAIN_FILE_VERSIONS, new String[] {"5", "Hudi's Flink name of " + FILE_VERSIONS_RETAINED
        + ", with Hudi's Flink default (falls back to " + FILE_VERSIONS_RETAINED + ")."});
    return Collections.unmodifiableMap(d);
  }
}
