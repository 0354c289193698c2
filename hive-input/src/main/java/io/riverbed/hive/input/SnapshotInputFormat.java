package io.riverbed.hive.input;

import io.riverbed.format.query.QuerySpec;

/**
 * The snapshot (real-time) query: each file group's latest slice, its base file merged with its
 * logs by the core's merge, deleted keys left out. MOR tables {@code <t>_rt} and {@code <t>} name
 * it, as {@code org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat}.
 */
public class SnapshotInputFormat extends RiverbedInputFormat {
  @Override
  protected QuerySpec query() {
    return QuerySpec.snapshot();
  }
}
