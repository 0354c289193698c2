package org.apache.hudi.hadoop.realtime;

import io.riverbed.hive.input.SnapshotInputFormat;

/**
 * Riverbed's snapshot input format under the class name Apache Hudi's sync registers for
 * MERGE_ON_READ tables' {@code _rt} (and riverbed-hive-sync too).
 */
public class HoodieParquetRealtimeInputFormat extends SnapshotInputFormat {}
