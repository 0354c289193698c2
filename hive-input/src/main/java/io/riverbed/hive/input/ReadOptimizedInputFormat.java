package io.riverbed.hive.input;

import io.riverbed.format.query.QuerySpec;

/**
 * The read-optimized query: the latest committed base file of each file group's latest slice,
 * logs not read; for a COPY_ON_WRITE table that is the table. Hive tables {@code <t>} (COW) and
 * {@code <t>_ro} (MOR) name it, as {@code org.apache.hudi.hadoop.HoodieParquetInputFormat}.
 */
public class ReadOptimizedInputFormat extends RiverbedInputFormat {
  @Override
  protected QuerySpec query() {
    return QuerySpec.readOptimized();
  }
}
