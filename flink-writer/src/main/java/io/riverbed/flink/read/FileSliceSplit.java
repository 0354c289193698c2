package io.riverbed.flink.read;

import io.riverbed.format.query.PlanContext;
import io.riverbed.format.query.Split;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One file slice of a planned query as a Flink source split, with its read position: how many of
 * its rows the reader already emitted. A reader restored from a checkpoint skips those rows, so a
 * bounded read restarted after a failure neither loses nor repeats rows (the core reads a slice in
 * the same order every time).
 *
 * @param splitId unique within the read: the slice's file group and its position in the plan
 * @param split the core's split
 * @param plan what the split's reader needs of the plan
 * @param emittedRows rows of this split already emitted downstream
 */
public record FileSliceSplit(String splitId, Split split, PlanContext plan, long emittedRows) implements SourceSplit {

  @Override
  public String splitId() {
    return splitId;
  }

  public FileSliceSplit withEmittedRows(long rows) {
    return new FileSliceSplit(splitId, split, plan, rows);
  }
}
