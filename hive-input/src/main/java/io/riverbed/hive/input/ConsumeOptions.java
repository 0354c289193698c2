package io.riverbed.hive.input;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * What a Hive session asks of one table with Hudi's per-table keys, {@code <t>} being the table's
 * {@code hoodie.table.name}: {@value #MODE} ({@code SNAPSHOT}, the default, or
 * {@code INCREMENTAL}), for an incremental pull {@value #START} (the instant after which commits
 * are pulled, required) and {@value #MAX_COMMITS} (how many commits, default
 * {@value #DEFAULT_MAX_COMMITS}, {@code -1} for all), and {@value #AS_OF} (a snapshot as of that
 * instant). An incremental pull returns the rows the pulled commits wrote, as the core's
 * incremental query does.
 */
record ConsumeOptions(String table, String mode, Optional<String> start, int maxCommits, Optional<String> asOf) {
  static final String MODE = "hoodie.<t>.consume.mode";
  static final String START = "hoodie.<t>.consume.start.timestamp";
  static final String MAX_COMMITS = "hoodie.<t>.consume.max.commits";
  static final String AS_OF = "hoodie.<t>.consume.commit";
  static final int DEFAULT_MAX_COMMITS = 1;
  static final String INCREMENTAL = "INCREMENTAL";
  static final String SNAPSHOT = "SNAPSHOT";
  /** Each key's default and meaning, for the option reference. */
  static final Map<String, String[]> DESCRIPTIONS = Map.of(
      MODE, new String[] {SNAPSHOT, SNAPSHOT + " (the latest snapshot, or the one `" + AS_OF + "` names) or "
          + INCREMENTAL + " (the rows the commits after `" + START + "` wrote)."},
      START, new String[] {null, INCREMENTAL + ": the instant after which commits are pulled (required)."},
      MAX_COMMITS, new String[] {String.valueOf(DEFAULT_MAX_COMMITS), INCREMENTAL
          + ": how many commits after the start are pulled; -1 for all."},
      AS_OF, new String[] {null, SNAPSHOT + ": read the table as of this instant (time travel)."});

  static String key(String pattern, String table) {
    return pattern.replace("<t>", table);
  }

  static ConsumeOptions of(Configuration conf, String table) {
    String mode = conf.get(key(MODE, table), SNAPSHOT).trim().toUpperCase(Locale.ROOT);
    if (!mode.equals(INCREMENTAL) && !mode.equals(SNAPSHOT)) {
      throw new HiveInputException(key(MODE, table) + "='" + conf.get(key(MODE, table)) + "' is not " + SNAPSHOT
          + " or " + INCREMENTAL);
    }
    String max = conf.get(key(MAX_COMMITS, table), String.valueOf(DEFAULT_MAX_COMMITS)).trim();
    int maxCommits;
    try {
      maxCommits = Integer.parseInt(max);
    } catch (NumberFormatException e) {
      throw new HiveInputException(key(MAX_COMMITS, table) + "='" + max + "' is not a number of commits", e);
    }
    if (maxCommits == 0 || maxCommits < -1) {
      throw new HiveInputException(key(MAX_COMMITS, table) + "=" + maxCommits + ": pull at least one commit, or -1 for all");
    }
    return new ConsumeOptions(table, mode, Optional.ofNullable(conf.get(key(START, table))).map(String::trim),
        maxCommits, Optional.ofNullable(conf.get(key(AS_OF, table))).map(String::trim));
  }

  /**
   * The query for {@code table}: {@code latest} (the format's own) unless the session asks for an
   * incremental pull or a snapshot as of an instant. The read-optimized view of a MERGE_ON_READ
   * table is not pulled incrementally (its pull would be of base files only, which Riverbed does
   * not plan); such a pull is refused by name.
   */
  QuerySpec query(Table table, QuerySpec latest) {
    if (mode.equals(INCREMENTAL)) {
      if (latest.type() == io.riverbed.format.query.QueryType.READ_OPTIMIZED && table.type() == TableType.MERGE_ON_READ) {
        throw new HiveInputException(key(MODE, this.table) + "=" + INCREMENTAL + ": table " + table.basePath()
            + " is MERGE_ON_READ; pull it incrementally through its _rt table, not the read-optimized one");
      }
      String begin = start.orElseThrow(() -> new HiveInputException(key(MODE, this.table) + "=" + INCREMENTAL
          + " needs " + key(START, this.table) + " (the instant after which to pull commits)"));
      return QuerySpec.incremental(begin, endOfPull(table, begin));
    }
    return asOf.map(QuerySpec::asOf).orElse(latest);
  }

  /** The last of the {@link #maxCommits} completed commits after {@code begin}; null (the latest) for all or too few. */
  private String endOfPull(Table table, String begin) {
    if (maxCommits == -1) {
      return null;
    }
    Timeline timeline = table.timeline();
    Timeline commits = table.type() == TableType.COPY_ON_WRITE ? timeline.commitAndReplaceTimeline() : timeline.writeTimeline();
    List<Instant> after = commits.completed().instants().stream().filter(i -> i.time().compareTo(begin) > 0).toList();
    return after.size() <= maxCommits ? null : after.get(maxCommits - 1).time();
  }
}
