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
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

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

  private SliceMerge(Table table, Schema tableSchema, Timeline timeline, ReadSettings settings) {
    this.table = table;
    this.timeline = timeline;
    this.tableSchema = tableSchema;
    this.committed = InstantCommittedPredicate.of(timeline);
    this.mergeRule = PayloadMergeRule.forPayloadClass(table.config().payloadClass());
    this.orderingField = table.config().precombineField().filter(f -> tableSchema.getField(f) != null).orElse(null);
    this.settings = settings;
  }

  /** The merge of {@code plan}'s slices; the plan must have a schema (a table with data). */
  static SliceMerge of(QueryPlan plan, ReadSettings settings) {
    Schema schema = plan.schema()
        .orElseThrow(() -> new TableException("table " + plan.table().basePath() + " has no schema yet"));
    return new SliceMerge(plan.table(), schema, plan.activeTimeline(), settings);
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
    SliceLogScanner.Builder builder = SliceLogScanner.builder(table.fs())
        .readerSchema(readerSchema)
        .latestInstantTime(split.latestInstant())
        .committed(committed)
        .orderingField(orderingField)
        .recordKeyField(MetaFields.RECORD_KEY)
        .mergeRule(mergeRule)
        .memoryBudgetBytes(settings.maxMemoryForMergeBytes())
        .spillDirectory(settings.spillDirectory())
        .committedWrites(committedWrites())
        .fileGroup(table.basePath().toString(), split.slice().fileGroupId().toString());
    for (LogFile log : split.slice().logFiles()) {
      builder.logFile(log.path(), log.length());
    }
    return builder.build().scan();
  }

  /** What the plan's completed instants committed into log files; read once, on the first slice with logs. */
  private synchronized CommittedLogWrites committedWrites() {
    if (committedWrites == null) {
      committedWrites = CommittedLogWrites.load(table.timelineStore(), timeline,
          table.basePath());
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
