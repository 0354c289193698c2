package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.consumer.Consumer;
import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CleanMetadata;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link QuerySpec} into splits, with the semantics of Hudi's Spark reader: snapshot and
 * time travel read the latest merged slices as of the query instant, read-optimized reads base
 * files only, incremental reads only the files the commits in {@code (begin, end]} wrote, or, for a
 * range reaching before the active timeline, what {@link IncrementalScope} says Hudi 0.15 reads. On a
 * version 8 table begin and end are completion times, as in Hudi 1.x ({@link CompletionTimeRange}).
 *
 * <p>An incremental read for a consumer ({@link QuerySpec#consumerId}) begins at the given begin
 * instant, else at the consumer's stored position, and records that begin instant as the
 * consumer's position before its files are listed ({@link ConsumerRegistry#advance}): from then on
 * cleaning keeps everything a read from there needs, this read's files included, until the
 * consumer records a later position (its next read with a later begin) or expires. The end of the
 * read is not recorded: the planner cannot know that the read completes, so a read with no begin
 * reads the last range again (at least once). Refused before anything is recorded: a consumer read
 * with no begin of a consumer that is not registered, and one whose begin is older than what the
 * last clean retained while commits in between may have lost files.
 */
public final class QueryPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(QueryPlanner.class);

  private QueryPlanner() {}

  public static QueryPlan plan(Table table, QuerySpec spec) {
    Timeline active = table.refreshTimeline();
    QuerySpec query = spec.consumerId().isPresent() ? startConsumerRead(table, active, spec) : spec;
    Optional<Schema> schema = schemaAsOf(table, active, query.asOfInstant());
    return switch (query.type()) {
      case SNAPSHOT -> snapshot(table, active, schema, query.asOfInstant());
      case READ_OPTIMIZED -> readOptimized(table, active, schema, query.asOfInstant());
      case INCREMENTAL -> incremental(table, active, schema, query);
    };
  }

  /**
   * The schema of the query: for time travel the table's schema as of that instant (Hudi 0.15
   * reads an as-of query in the schema of its instant: a column added later is not there), else
   * the latest; the latest too if nothing before the instant has a schema.
   */
  private static Optional<Schema> schemaAsOf(Table table, Timeline active, Optional<String> asOf) {
    Optional<Schema> then = asOf.flatMap(instant -> TableSchemaResolver.resolve(table, active.onOrBefore(instant)));
    return then.isPresent() ? then : TableSchemaResolver.resolve(table, active);
  }

  /** The consumer's begin instant (given, else its position), checked and recorded as its position. */
  private static QuerySpec startConsumerRead(Table table, Timeline active, QuerySpec spec) {
    String id = spec.consumerId().orElseThrow();
    ConsumerRegistry consumers = ConsumerRegistry.of(table);
    String begin = spec.beginInstant().orElseGet(() -> consumers.get(id).map(Consumer::position).orElseThrow(() ->
        new TableException("table " + table.basePath() + " has no consumer " + id + "; give "
            + QuerySpec.BEGIN_INSTANT + " for its first read")));
    requireNotCleanedPast(table, active, id, begin);
    consumers.advance(id, begin);
    return spec.withBeginInstant(begin);
  }

  /**
   * A consumer's read may not begin where the last clean may have deleted files of the commits it
   * returns: a completed write after the begin instant and before that clean's earliest retained
   * instant. (A live consumer holds cleans back so that this does not happen; an expired one, or
   * one registered at an old position, may be past.)
   */
  private static void requireNotCleanedPast(Table table, Timeline active, String consumerId, String begin) {
    Optional<Instant> clean = active.ofAction(Action.CLEAN).completed().last();
    Optional<String> retained = clean.flatMap(c -> earliestRetainedBy(table, c));
    if (retained.isEmpty()) {
      return;
    }
    String floor = retained.get();
    Optional<Instant> lost = active.writeTimeline().completed().instants().stream()
        .filter(i -> i.time().compareTo(begin) > 0 && i.time().compareTo(floor) < 0).findFirst();
    if (lost.isPresent()) {
      throw new TableException("table " + table.basePath() + ": consumer " + consumerId + " reads from " + begin
          + ", but clean " + clean.get().time() + " retained only the commits from " + floor + " on; files of "
          + lost.get().time() + " and later commits before " + floor + " may be deleted (a consumer holds cleaning "
          + "back only while it is registered and not expired, " + ConsumerOptions.EXPIRATION + "). Begin at " + floor
          + " or later, or read a snapshot");
    }
  }

  /** The earliest instant {@code clean} retained, empty for a clean that kept file versions. */
  private static Optional<String> earliestRetainedBy(Table table, Instant clean) {
    TimelineStore store = table.timelineStore();
    byte[] bytes = store.read(clean);
    String retained = bytes.length == 0 ? ""
        : CleanMetadata.fromBytes(bytes, store.pathOf(clean).toString()).earliestCommitToRetain();
    return retained.isEmpty() ? Optional.empty() : Optional.of(retained);
  }

  private static QueryPlan snapshot(Table table, Timeline active, Optional<Schema> schema, Optional<String> asOf) {
    FileSystemView view = FileSystemViewLoader.load(table, active);
    Optional<String> q = queryInstant(table, active, view, asOf);
    List<Split> splits = q.map(instant -> toSplits(view.latestMergedSlices(instant), instant, null)).orElse(List.of());
    return new QueryPlan(table, active, schema, q, Optional.empty(), splits);
  }

  private static QueryPlan readOptimized(Table table, Timeline active, Optional<Schema> schema, Optional<String> asOf) {
    FileSystemView view = FileSystemViewLoader.load(table, active);
    Optional<String> q = queryInstant(table, active, view, asOf);
    List<Split> splits = q.map(instant -> toSplits(view.latestBaseFileSlices(instant), instant, null)).orElse(List.of());
    return new QueryPlan(table, active, schema, q, Optional.empty(), splits);
  }

  private static Optional<String> queryInstant(Table table, Timeline active, FileSystemView view, Optional<String> asOf) {
    Optional<String> latest = view.defaultQueryInstant();
    if (asOf.isEmpty() || latest.isEmpty()) {
      return latest;
    }
    requireNotCleaned(table, active, asOf.get());
    return asOf;
  }

  /**
   * Time travel may not reach before what the latest clean retained (Hudi's
   * {@code TimelineUtils.validateTimestampAsOf}): its earliest retained instant, or the first
   * completed write if it kept file versions, not instants.
   */
  private static void requireNotCleaned(Table table, Timeline active, String asOf) {
    Optional<Instant> clean = active.ofAction(Action.CLEAN).completed().last();
    if (clean.isEmpty()) {
      return;
    }
    Optional<String> floor = earliestRetainedBy(table, clean.get())
        .or(() -> active.writeTimeline().completed().first().map(Instant::time));
    if (floor.isPresent() && asOf.compareTo(floor.get()) < 0) {
      throw new TableException("table " + table.basePath() + ": time travel to " + asOf + " reaches before "
          + floor.get() + ", the earliest instant clean " + clean.get().time() + " retained; its files may be "
          + "deleted (retain more commits with the cleaner to read that far back)");
    }
  }

  /**
   * The changes of the commits completed after {@code beginExclusive}, up to {@code endInclusive}
   * (empty: the latest) or the last one before the first still incomplete, for a streaming reader ({@link SplitReader#readChanges}). On
   * MERGE_ON_READ every slice the range's writes put files into, oldest first per file group, not
   * the latest slice: a compaction's base file carries no change of its own (its rows keep their
   * commit times), and the deletes it dropped are only in the logs it merged. On COPY_ON_WRITE
   * what an incremental query reads: the latest slices of the written files.
   *
   * @throws TableException if {@code beginExclusive} is older than the active timeline, or the
   *     table's version ranges changes by completion time (version 8)
   */
  public static QueryPlan planChanges(Table table, String beginExclusive, Optional<String> endInclusive) {
    if (table.config().incrementalRangeByCompletionTime()) {
      throw new TableException("table " + table.basePath() + " has table version " + table.config().version()
          + ": streaming reads of its changes are not supported yet (incremental queries are)");
    }
    Timeline active = table.refreshTimeline();
    Optional<Schema> schema = TableSchemaResolver.resolve(table, active);
    QuerySpec spec = new QuerySpec(QueryType.INCREMENTAL, Optional.empty(), Optional.of(beginExclusive), endInclusive,
        QuerySpec.HolesPolicy.BLOCK, false, Optional.empty());
    if (table.type() == TableType.COPY_ON_WRITE) {
      return incremental(table, active, schema, spec);
    }
    IncrementalScope scope = scope(table, active, spec);
    if (scope.beginArchived() && ArchivedTimeline.exists(table)
        && ArchivedTimeline.load(table).instants().stream().anyMatch(i -> i.time().compareTo(beginExclusive) > 0)) {
      throw new TableException("table " + table.basePath() + ": the changes after " + beginExclusive + " reach before the "
          + "active timeline (its first commit is " + scope.firstActive().orElse("-") + "): archived commits' changes "
          + "cannot be read; register the reader as a consumer so that archival keeps its position, or start it anew");
    }
    if (scope.commits().isEmpty()) {
      return new QueryPlan(table, active, schema, Optional.of(scope.end()),
          Optional.of(scope.rows(IncrementalScope.Source.NOTHING)), List.of());
    }
    InstantRange rows = scope.rows(IncrementalScope.Source.COMMIT_FILES);
    Timeline writes = scope.commits().filter(i -> i.action() != Action.COMMIT);
    FileSystemView view = FileSystemViewLoader.fromFiles(table, active, onlyValues(filesWritten(table, writes)));
    List<Split> splits = new ArrayList<>();
    for (FileGroup group : view.fileGroups()) {
      List<FileSlice> slices = new ArrayList<>(view.committedSlices(group));
      Collections.reverse(slices);
      slices.stream().filter(slice -> !slice.isEmpty())
          .forEach(slice -> splits.add(new Split(slice, scope.lastCommit(), Optional.of(rows))));
    }
    return new QueryPlan(table, active, schema, Optional.of(scope.lastCommit()), Optional.of(rows), splits);
  }

  private static QueryPlan incremental(Table table, Timeline active, Optional<Schema> schema, QuerySpec spec) {
    boolean cow = table.type() == TableType.COPY_ON_WRITE;
    Optional<ArchivedTimeline> history = HistoryReach.reachedBy(table,
        (cow ? active.commitAndReplaceTimeline() : active.writeTimeline()).completed(), spec.beginInstant().orElseThrow());
    IncrementalScope scope = scope(table, active, spec, history);
    String end = scope.end();
    CommitFiles commitFiles = new CommitFiles(table, active, scope, history);
    IncrementalScope.Source source = scope.source(spec.fallbackToFullTableScan(),
        () -> cow ? commitFiles.anyMissing(commitFiles.slices()) : commitFiles.anyWrittenMissing());
    InstantRange rows = scope.rows(source);
    logArchivedPart(table, scope, source);
    return switch (source) {
      case NOTHING -> new QueryPlan(table, active, schema, Optional.of(end), Optional.of(rows), List.of());
      case COMMIT_FILES -> new QueryPlan(table, active, schema, Optional.of(scope.lastCommit()), Optional.of(rows),
          toSplits(commitFiles.slices(), scope.lastCommit(), rows));
      case FULL_TABLE_SCAN -> fullTableScan(table, active, schema, rows);
    };
  }

  /**
   * The fallback's read, as Hudi 0.15's: the latest base file of every file group (its full table
   * scan lists base files only, on MERGE_ON_READ too, so changes still in log files and file
   * groups with logs only are not read), rows kept by commit time.
   */
  private static QueryPlan fullTableScan(Table table, Timeline active, Optional<Schema> schema, InstantRange rows) {
    FileSystemView view = FileSystemViewLoader.load(table, active);
    Optional<String> latest = view.defaultQueryInstant();
    List<Split> splits = latest.map(q -> toSplits(view.latestBaseFileSlices(q), q, rows)).orElse(List.of());
    return new QueryPlan(table, active, schema, latest, Optional.of(rows), splits);
  }

  /**
   * A range reaching before the active timeline into archived instants is answered as Hudi 0.15
   * answers it; without the fallback that is only what the active commits wrote, so say so.
   */
  private static void logArchivedPart(Table table, IncrementalScope scope, IncrementalScope.Source source) {
    if (!scope.beginArchived()) {
      return;
    }
    String first = scope.firstActive().orElseThrow();
    if (source == IncrementalScope.Source.FULL_TABLE_SCAN) {
      LOG.info("Table {}: incremental range ({}, {}] begins before the active timeline (first commit {}); "
          + "reading it by a full table scan ({}=true)", table.basePath(), scope.begin(), scope.end(), first,
          QuerySpec.FALLBACK_FULL_TABLE_SCAN);
    } else if (ArchivedTimeline.exists(table)) {
      LOG.warn("Table {}: incremental range ({}, {}] reaches into archived time: instants in ({}, {}) are archived "
          + "and not read, so the answer holds only what the active commits from {} on wrote (as Hudi 0.15 answers); "
          + "set {}=true for a full table scan, or begin at {} or later", table.basePath(), scope.begin(),
          scope.end(), scope.begin(), first, first, QuerySpec.FALLBACK_FULL_TABLE_SCAN, first);
    }
  }

  /** The scope of an incremental query: its range, ended before the first incomplete commit as its policy says. */
  private static IncrementalScope scope(Table table, Timeline active, QuerySpec spec) {
    return scope(table, active, spec, Optional.empty());
  }

  /** As {@link #scope(Table, Timeline, QuerySpec)}, the archived writes of {@code history} among the candidates. */
  private static IncrementalScope scope(Table table, Timeline active, QuerySpec spec,
      Optional<ArchivedTimeline> history) {
    boolean cow = table.type() == TableType.COPY_ON_WRITE;
    Timeline activeCandidates = (cow ? active.commitAndReplaceTimeline() : active.writeTimeline()).completed();
    Timeline candidates = history.map(h -> HistoryReach.withArchived(activeCandidates, h, table.type()))
        .orElse(activeCandidates);
    String begin = spec.beginInstant().orElseThrow();
    Optional<String> givenEnd = spec.endInstant();
    if (table.config().incrementalRangeByCompletionTime()) {
      var requested = CompletionTimeRange.toRequestedRange(candidates, begin, givenEnd, table.basePath().toString());
      begin = requested.beginExclusive();
      givenEnd = Optional.of(requested.endInclusive());
    }
    String end = givenEnd.or(() -> candidates.last().map(Instant::time)).orElse(begin);
    Optional<String> hole = firstHole(active, begin, end);
    if (hole.isPresent()) {
      if (spec.holesPolicy() == QuerySpec.HolesPolicy.FAIL) {
        throw new TableException("table " + table.basePath() + ": instant " + hole.get()
            + " is still incomplete inside the incremental range (" + begin + ", " + end + "]; roll it back or set "
            + QuerySpec.HOLES_POLICY + "=BLOCK to read up to it");
      }
      String blocked = hole.get();
      end = candidates.filter(i -> i.time().compareTo(blocked) < 0).last().map(Instant::time).orElse(begin);
    }
    return IncrementalScope.of(table.type(), candidates, begin, end);
  }

  /** The files an incremental range's commits wrote and the slices they make, read once, when first needed. */
  private static final class CommitFiles {
    private final Table table;
    private final Timeline active;
    private final IncrementalScope scope;
    private final Optional<ArchivedTimeline> history;
    private Map<String, Map<String, FileStatus>> written;
    private List<FileSlice> slices;

    CommitFiles(Table table, Timeline active, IncrementalScope scope, Optional<ArchivedTimeline> history) {
      this.table = table;
      this.active = active;
      this.scope = scope;
      this.history = history;
    }

    Map<String, Map<String, FileStatus>> written() {
      if (written == null) {
        written = filesWritten(table, scope.commits(), active, history);
      }
      return written;
    }

    /** The latest merged slices of the written files as of the last commit. */
    List<FileSlice> slices() {
      if (slices == null) {
        FileSystemView view = FileSystemViewLoader.fromFiles(table, active, onlyValues(written()));
        slices = view.latestMergedSlices(scope.lastCommit());
      }
      return slices;
    }

    boolean anyWrittenMissing() {
      return written().values().stream().flatMap(m -> m.values().stream()).anyMatch(f -> missing(f.getPath()));
    }

    boolean anyMissing(List<FileSlice> read) {
      return read.stream().anyMatch(s -> s.baseFile().map(b -> missing(b.path())).orElse(false)
          || s.logFiles().stream().anyMatch(l -> missing(l.path())));
    }

    private boolean missing(Path path) {
      try {
        return !table.fs().exists(path);
      } catch (IOException e) {
        throw new TableException("table " + table.basePath() + ": cannot check whether " + path + " exists", e);
      }
    }
  }

  /** The first commit/deltacommit/replacecommit still pending while a later one in (begin, end] completed. */
  private static Optional<String> firstHole(Timeline active, String begin, String end) {
    Timeline commits = active.commitsTimeline();
    Optional<String> lastCompleted = commits.completed().inRange(begin, end).last().map(Instant::time);
    if (lastCompleted.isEmpty()) {
      return Optional.empty();
    }
    return commits.pending().instants().stream()
        .map(Instant::time)
        .filter(t -> t.compareTo(begin) > 0 && t.compareTo(lastCompleted.get()) < 0)
        .findFirst();
  }

  /** Per partition, the files the selected commits wrote (a later commit's size wins for the same path). */
  private static Map<String, Map<String, FileStatus>> filesWritten(Table table, Timeline selected) {
    return filesWritten(table, selected, selected, Optional.empty());
  }

  /** The files {@code selected} wrote; an instant not in {@code active} has its metadata from {@code history}. */
  private static Map<String, Map<String, FileStatus>> filesWritten(Table table, Timeline selected, Timeline active,
      Optional<ArchivedTimeline> history) {
    TimelineStore store = table.timelineStore();
    Map<String, Map<String, FileStatus>> files = new LinkedHashMap<>();
    for (Instant instant : selected.instants()) {
      CommitMetadata metadata;
      if (history.isPresent() && !active.containsTime(instant.time())) {
        String source = "archived instant " + instant + " in " + table.archivePath();
        metadata = CommitMetadata.parse(history.get().metadataOf(instant).orElseThrow(() -> new TableException(
            "table " + table.basePath() + ": " + source + " keeps no commit metadata")), source);
      } else {
        metadata = CommitMetadata.parse(store.read(instant), store.pathOf(instant).toString());
      }
      metadata.partitionToWriteStats().forEach((partition, stats) -> {
        Map<String, FileStatus> inPartition = files.computeIfAbsent(partition, p -> new LinkedHashMap<>());
        for (WriteStat stat : stats) {
          if (stat.path() == null || stat.path().isEmpty()) {
            continue;
          }
          Path path = new Path(table.basePath(), stat.path());
          inPartition.put(stat.path(), new FileStatus(stat.fileSizeInBytes(), false, 1, 0, 0, path));
        }
      });
    }
    return files;
  }

  private static Map<String, List<FileStatus>> onlyValues(Map<String, Map<String, FileStatus>> files) {
    Map<String, List<FileStatus>> out = new LinkedHashMap<>();
    files.forEach((p, m) -> out.put(p, new ArrayList<>(m.values())));
    return out;
  }

  private static List<Split> toSplits(List<FileSlice> slices, String instant, InstantRange range) {
    return slices.stream().map(s -> new Split(s, instant, Optional.ofNullable(range))).toList();
  }
}
