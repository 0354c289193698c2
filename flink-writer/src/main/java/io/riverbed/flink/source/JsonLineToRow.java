package io.riverbed.flink.source;

import io.riverbed.format.InvalidRecordException;
import java.io.Serializable;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns source lines into rows of the job's row type. Blank lines are skipped silently. A bad
 * record (not valid JSON, not fitting the row type, or refused by the {@link RowCheck}: the write
 * job's check refuses partition values the core's partition path rule does not allow) fails the
 * job with {@link BadRecordException} naming its line (or offset) and field, or,
 * under {@link BadRecordPolicy#SKIP}, is dropped: counted in the {@code badRecordsSkipped}
 * metric and job accumulator, logged at WARN (the first {@value #LOGGED_IN_FULL}, then every {@value #LOG_EVERY}th)
 * and summed up when the task closes. Any other {@link InvalidRecordException} of the check (a
 * null or empty record key) fails the job under either policy, naming the line and its text.
 */
public final class JsonLineToRow extends RichFlatMapFunction<SourceLine, RowData> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(JsonLineToRow.class);
  static final int LOGGED_IN_FULL = 100;
  static final int LOG_EVERY = 1000;
  private static final int MAX_TEXT_CHARS = 500;

  private final JsonRowConverter converter;
  private final BadRecordPolicy policy;
  private final RowKind rowKind;
  private final RowCheck check;

  /** A check of a converted row; throws {@link BadRecordException} to refuse it as a bad record. */
  @FunctionalInterface
  public interface RowCheck extends Serializable {
    /** Accepts every row. */
    RowCheck NONE = row -> { };

    void check(RowData row);
  }

  /** Name of the metric and of the job accumulator counting skipped bad records. */
  public static final String SKIPPED = "badRecordsSkipped";

  private transient Counter skippedMetric;
  private transient LongCounter skippedTotal;
  private transient long skipped;

  /**
   * @param rowKind the kind every row gets: {@link RowKind#INSERT} for upserts and inserts,
   *     {@link RowKind#DELETE} for a delete job
   */
  public JsonLineToRow(JsonRowConverter converter, BadRecordPolicy policy, RowKind rowKind) {
    this(converter, policy, rowKind, RowCheck.NONE);
  }

  /** @param check applied to every converted row, its bad records handled by {@code policy} */
  public JsonLineToRow(JsonRowConverter converter, BadRecordPolicy policy, RowKind rowKind, RowCheck check) {
    this.converter = converter;
    this.policy = policy;
    this.rowKind = rowKind;
    this.check = check;
  }

  @Override
  public void open(OpenContext openContext) {
    skippedMetric = getRuntimeContext().getMetricGroup().counter(SKIPPED);
    skippedTotal = getRuntimeContext().getLongCounter(SKIPPED);
    skipped = 0;
  }

  @Override
  public void flatMap(SourceLine line, Collector<RowData> out) {
    if (line.text().isBlank()) {
      return;
    }
    RowData row;
    try {
      row = converter.convert(line.text());
      check.check(row);
    } catch (BadRecordException e) {
      if (policy == BadRecordPolicy.FAIL) {
        throw new BadRecordException("bad record at " + line.location() + ": " + e.getMessage()
            + " (use --on-bad-record skip to skip such records)");
      }
      skipped++;
      skippedMetric.inc();
      skippedTotal.add(1);
      if (skipped <= LOGGED_IN_FULL || skipped % LOG_EVERY == 0) {
        LOG.warn("Skipped bad record #{} at {}: {}", skipped, line.location(), e.getMessage());
      }
      return;
    } catch (InvalidRecordException e) {
      throw new InvalidRecordException("record at " + line.location() + ": " + e.getMessage() + "; the record: "
          + abbreviate(line.text()));
    }
    row.setRowKind(rowKind);
    out.collect(row);
  }

  private static String abbreviate(String text) {
    String trimmed = text.strip();
    return trimmed.length() <= MAX_TEXT_CHARS ? trimmed : trimmed.substring(0, MAX_TEXT_CHARS) + "...(truncated)";
  }

  /** Bad records this task skipped so far. */
  public long skipped() {
    return skipped;
  }

  @Override
  public void close() {
    if (skipped > 0) {
      LOG.warn("Skipped {} bad record(s) in total in this task", skipped);
    }
  }
}
