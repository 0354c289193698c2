package io.riverbed.format.query;

import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.Timeline;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What an incremental query over {@code (begin, end]} reads, decided as Apache Hudi 0.15's Spark
 * reader decides it ({@code IncrementalRelation} for COPY_ON_WRITE, {@code
 * MergeOnReadIncrementalRelation} for MERGE_ON_READ). Only the active timeline counts; the
 * archived one is never read:
 *
 * <ul>
 *   <li>a bound is <em>archived</em> when it precedes the first completed commit of the active
 *       timeline (so {@code 000} is, on every table);
 *   <li>without the fallback the query reads the files of the active commits in the range: on
 *       COPY_ON_WRITE the rows committed by the first to the last of them, on MERGE_ON_READ the
 *       rows after {@code begin} (archived) or from the first of them, up to {@code end}
 *       (archived) or the last of them; a MERGE_ON_READ range wholly archived reads nothing;
 *   <li>with the fallback a range with an archived bound, or whose commits wrote files that are
 *       gone (cleaned), is read by a full table scan: the latest base file of each file group (log
 *       files are not listed, on MERGE_ON_READ either), rows committed after {@code begin} up to
 *       {@code end} (COPY_ON_WRITE), or in the MERGE_ON_READ window above.
 * </ul>
 *
 * @param type the table type
 * @param begin the exclusive begin instant as given
 * @param end the inclusive end instant (given, or the latest completed commit)
 * @param firstActive the first completed commit of the active timeline; empty on a table without one
 * @param commits the active completed commits whose files a read of the commits' own files takes:
 *     those in {@code (begin, end]}, on MERGE_ON_READ every one when both bounds are archived
 */
public record IncrementalScope(TableType type, String begin, String end, Optional<String> firstActive,
    Timeline commits) {

  /** Where the rows come from. */
  public enum Source {
    /** No rows. */
    NOTHING,
    /** The file slices the commits' files make, as of the last of those commits. */
    COMMIT_FILES,
    /** The latest base file of every file group, without logs. */
    FULL_TABLE_SCAN
  }

  /**
   * The scope of {@code (begin, end]} over {@code completedCommits}: completed commit and
   * replacecommit instants on COPY_ON_WRITE (Hudi's {@code getCommitTimeline}), completed write
   * instants on MERGE_ON_READ (its {@code getCommitsAndCompactionTimeline}).
   */
  public static IncrementalScope of(TableType type, Timeline completedCommits, String begin, String end) {
    Optional<String> first = completedCommits.first().map(Instant::time);
    boolean wholeTimeline = type == TableType.MERGE_ON_READ && first.isPresent()
        && begin.compareTo(first.get()) < 0 && end.compareTo(first.get()) < 0;
    Timeline commits = wholeTimeline ? completedCommits : completedCommits.inRange(begin, end);
    return new IncrementalScope(type, begin, end, first, commits);
  }

  public boolean beginArchived() {
    return firstActive.filter(f -> begin.compareTo(f) < 0).isPresent();
  }

  public boolean endArchived() {
    return firstActive.filter(f -> end.compareTo(f) < 0).isPresent();
  }

  /**
   * Where the rows come from.
   *
   * @param fallback {@value QuerySpec#FALLBACK_FULL_TABLE_SCAN}
   * @param filesMissing whether a file the commits wrote is gone: on COPY_ON_WRITE one of those the
   *     read would open, on MERGE_ON_READ any; asked only with the fallback on
   */
  public Source source(boolean fallback, BooleanSupplier filesMissing) {
    boolean archived = beginArchived() || endArchived();
    if (type == TableType.COPY_ON_WRITE) {
      if (fallback && archived) {
        return Source.FULL_TABLE_SCAN;
      }
      if (commits.isEmpty()) {
        return Source.NOTHING;
      }
      return fallback && filesMissing.getAsBoolean() ? Source.FULL_TABLE_SCAN : Source.COMMIT_FILES;
    }
    if (commits.isEmpty()) {
      return Source.NOTHING;
    }
    if (fallback && (archived || filesMissing.getAsBoolean())) {
      return Source.FULL_TABLE_SCAN;
    }
    return beginArchived() && endArchived() ? Source.NOTHING : Source.COMMIT_FILES;
  }

  /** The window of {@code _hoodie_commit_time} the rows read from {@code source} must fall into. */
  public InstantRange rows(Source source) {
    if (type == TableType.COPY_ON_WRITE) {
      return source == Source.FULL_TABLE_SCAN || commits.isEmpty() ? InstantRange.between(begin, end)
          : InstantRange.closed(firstCommit(), lastCommit());
    }
    String upTo = endArchived() || commits.isEmpty() ? end : lastCommit();
    return beginArchived() || commits.isEmpty() ? InstantRange.between(begin, upTo) : InstantRange.closed(firstCommit(), upTo);
  }

  private String firstCommit() {
    return commits.first().orElseThrow().time();
  }

  /** The last of {@link #commits}; the instant a read of their files reads as of. */
  public String lastCommit() {
    return commits.last().orElseThrow().time();
  }
}
