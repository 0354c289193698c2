package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.log.LogEntry;
import io.riverbed.format.log.MergedLogRecords;
import io.riverbed.format.log.SliceLogScanner;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommittedLogWrites;
import io.riverbed.format.timeline.InstantCommittedPredicate;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;

/**
 * How the slices of one planned query are merged: which log blocks count (the plan's timeline),
 * the table's payload rule and ordering field, and the memory the log merge may use.
 */
final class SliceMerge {
  private final Table table;
  private final Schema tableSchema;
  private final Predicate<String> committed;
  private final PayloadMergeRule mergeRule;
  private final String orderingField;
  private final ReadSettings settings;
  private final Timeline timeline;
  private CommittedLogWrites committedWrites;
  /** The oldest instant {@link #committedWrites} holds the writes from; null before any are read. */
  private String writesSince;

  private SliceMerge(Table table, Schema tableSchema, Timeline timeline, ReadSettings settings,
      Optional<CommittedLogWrites> writes) {
    this.table = table;
    this.timeline = timeline;
    this.committedWrites = writes.orElse(CommittedLogWrites.none());
    // given writes cover every log file of the query: "" sorts before every instant, so none is read again
    this.writesSince = writes.isPresent() ? "" : null;
    this.tableSchema = tableSchema;
    this.committed = InstantCommittedPredicate.of(timeline);
    this.mergeRule = PayloadMergeRule.forPayloadClass(table.config().payloadClass());
    this.orderingField = table.config().precombineField().filter(f -> tableSchema.getField(f) != null).orElse(null);
    this.settings = settings;
  }

  /** The merge of {@code plan}'s slices; the plan must have a schema (a table with data). */
  static SliceMerge of(QueryPlan plan, ReadSettings settings) {
    return of(plan, settings, Optional.empty());
  }

  /**
   * The merge of {@code plan}'s slices; {@code writes}, when given, holds what the plan's instants
   * committed into every log file of the slices read (loaded once for the query, {@link
   * #committedWritesFor}), so this merge reads no commit metadata.
   */
  static SliceMerge of(QueryPlan plan, ReadSettings settings, Optional<CommittedLogWrites> writes) {
    Schema schema = plan.schema()
        .orElseThrow(() -> new TableException("table " + plan.table().basePath() + " has no schema yet"));
    return new SliceMerge(plan.table(), schema, plan.activeTimeline(), settings, writes);
  }

  /**
   * What {@code plan}'s completed instants committed into the log files of {@code splits}: the
   * commit metadata of the instants from the oldest of their base instants on, read once.
   */
  static CommittedLogWrites committedWritesFor(QueryPlan plan, List<Split> splits) {
    Optional<String> since = oldestLogBaseInstant(splits);
    if (since.isEmpty()) {
      return CommittedLogWrites.none();
    }
    List<Path> logs = splits.stream().flatMap(s -> s.slice().logFiles().stream()).map(LogFile::path).toList();
    Table table = plan.table();
    return CommittedLogWrites.loadSince(table.timelineStore(), plan.activeTimeline(), table.basePath(), since.get())
        .restrictedTo(logs);
  }

  /** The oldest base instant of the splits' log files, the first instant that can have written into them. */
  private static Optional<String> oldestLogBaseInstant(List<Split> splits) {
    return splits.stream().flatMap(s -> s.slice().logFiles().stream()).map(LogFile::baseInstant)
        .min(String::compareTo);
  }

  Table table() {
    return table;
  }

  Schema tableSchema() {
    return tableSchema;
  }

  /** The table's ordering field, or null when it has none (or the schema lacks it). */
  String orderingField() {
    return orderingField;
  }

  /**
   * The split's committed log records merged per key, read into {@code readerSchema}. An
   * incremental split's logs are merged whole up to its latest instant, blocks of instants before
   * its range included, as Hudi 0.15's Spark reader merges them: a key's version from before the
   * range can win the merge over one written inside it, and the row then falls outside the range.
   */
  MergedLogRecords scanLogs(Split split, Schema readerSchema) {
    return scanLogs(split, readerSchema, false);
  }

  /**
   * As {@link #scanLogs(Split, Schema)}; with {@code rangeOnly} an incremental split's logs are
   * merged from the blocks of its range alone, so that every entry is a change the range made.
   */
  MergedLogRecords scanLogs(Split split, Schema readerSchema, boolean rangeOnly) {
    SliceLogScanner.Builder builder = SliceLogScanner.builder(table.fs())
        .readerSchema(readerSchema)
        .latestInstantTime(split.latestInstant())
        .committed(committed)
        .orderingField(orderingField)
        .recordKeyField(MetaFields.RECORD_KEY)
        .mergeRule(mergeRule)
        .memoryBudgetBytes(settings.maxMemoryForMergeBytes())
        .spillDirectory(settings.spillDirectory())
        .committedWrites(committedWrites(split))
        .fileGroup(table.basePath().toString(), split.slice().fileGroupId().toString());
    if (rangeOnly) {
      builder.instantRange(split.range().orElseThrow());
    }
    for (LogFile log : split.slice().logFiles()) {
      builder.logFile(log.path(), log.length());
    }
    return builder.build().scan();
  }

  /**
   * What the plan's completed instants committed into the split's log files: as given, or read
   * from the instants since the oldest base instant of the slices read so far (a split with an
   * older one reads the commit metadata again, from there).
   */
  private synchronized CommittedLogWrites committedWrites(Split split) {
    Optional<String> since = oldestLogBaseInstant(List.of(split));
    if (since.isPresent() && (writesSince == null || since.get().compareTo(writesSince) < 0)) {
      committedWrites = CommittedLogWrites.loadSince(table.timelineStore(), timeline, table.basePath(), since.get());
      writesSince = since.get();
    }
    return committedWrites;
  }

  /** True iff a base record's ordering value takes part in its merge with a log record. */
  boolean comparesBaseOrdering() {
    return mergeRule.comparesBaseOrdering(orderingField);
  }

  /**
   * What a key shows once its base record, represented by its ordering value, meets its merged
   * log record ({@code null} for a delete-block entry).
   */
  PayloadMergeRule.BaseMergeOutcome outcomeWithBase(String key, Comparable<?> persisted, GenericRecord logRecord) {
    return mergeRule.outcomeWithBase(key, persisted, logRecord, orderingField);
  }

  /** The record a key shows once its base record meets its merged log entry; empty if deleted. */
  Optional<GenericRecord> combine(String key, GenericRecord baseRecord, LogEntry entry) {
    GenericRecord logRecord = entry instanceof LogEntry.Upsert u ? u.record() : null;
    return mergeRule.combineWithBase(key, baseRecord, logRecord, orderingField);
  }
}
