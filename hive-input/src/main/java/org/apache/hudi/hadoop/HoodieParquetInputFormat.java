package org.apache.hudi.hadoop;

import io.riverbed.hive.input.ReadOptimizedInputFormat;

/**
 * Riverbed's read-optimized input format under the class name Apache Hudi's sync registers (and
 * riverbed-hive-sync too), so Hive reads the tables synced under Hudi's names with this jar alone.
 */
public class HoodieParquetInputFormat extends ReadOptimizedInputFormat {}
