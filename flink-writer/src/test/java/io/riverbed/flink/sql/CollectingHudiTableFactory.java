package io.riverbed.flink.sql;

import io.riverbed.flink.job.CollectingTableSink;

/**
 * The {@code hudi} factory's option handling with a collecting writer, as
 * {@code 'connector' = 'hudi-collect'}, for planner tests of what reaches the writer.
 */
public final class CollectingHudiTableFactory extends HudiTableFactory {
  static volatile CollectingTableSink current = new CollectingTableSink("sql");

  public CollectingHudiTableFactory() {
    super((rows, rowType, options) -> current.build(rows, rowType, options));
  }

  @Override
  public String factoryIdentifier() {
    return "hudi-collect";
  }
}
