package io.riverbed.spark.sql;

import io.riverbed.spark.LoadedTable;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsOverwrite;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.InsertableRelation;

/**
 * Spark's write of a SQL statement into a Hudi table ({@code INSERT INTO}, the write of a CTAS):
 * a V1 write, so that Spark hands the query's rows as a DataFrame to {@link SqlWrite}, which runs
 * them through the batch writer {@code df.write.format("hudi")} uses. {@code INSERT OVERWRITE} is
 * Hudi's: {@code insert_overwrite_table} without a partition spec (or on an unpartitioned table),
 * {@code insert_overwrite} of the partition a full static spec names; Spark itself refuses the
 * dynamic partition overwrite mode on a V1 write.
 */
public final class HudiWriteBuilder implements SupportsOverwrite {
  private final LoadedTable table;
  private final CatalogEntry entry;
  /** The overwrite operation of an {@code INSERT OVERWRITE}; null for an append. */
  private WriteOperationType overwrite;

  public HudiWriteBuilder(LoadedTable table, CatalogEntry entry, LogicalWriteInfo info) {
    this.table = table;
    this.entry = entry;
  }

  /** {@code INSERT OVERWRITE t SELECT ...} of an unpartitioned table, or of a partitioned one without a partition spec. */
  @Override
  public WriteBuilder truncate() {
    overwrite = WriteOperationType.INSERT_OVERWRITE_TABLE;
    return this;
  }

  /**
   * {@code INSERT OVERWRITE t PARTITION (p = 'v', ...)}: Spark gives the static partition values as
   * equalities; with a value for every partition column the rows all fall in that partition, which
   * {@code insert_overwrite} replaces.
   */
  @Override
  public WriteBuilder overwrite(Filter[] filters) {
    Set<String> given = new TreeSet<>();
    for (Filter f : filters) {
      if (f instanceof AlwaysTrue) {
        continue;
      }
      if (f instanceof EqualNullSafe e) {
        given.add(e.attribute());
      } else if (f instanceof EqualTo e) {
        given.add(e.attribute());
      } else {
        throw new UnsupportedOperationException("INSERT OVERWRITE into " + entry.name() + ": the condition " + f
            + " is not a partition value");
      }
    }
    if (given.isEmpty()) {
      return truncate();
    }
    Set<String> partitionColumns = new TreeSet<>(List.of(new TablePartitions(table, entry.name()).schema().fieldNames()));
    if (!given.equals(partitionColumns)) {
      throw new UnsupportedOperationException("INSERT OVERWRITE into " + entry.name() + " PARTITION " + given
          + ": give a value for every partition column " + partitionColumns + " (overwriting the partitions under a "
          + "prefix of them is not supported)");
    }
    overwrite = WriteOperationType.INSERT_OVERWRITE;
    return this;
  }

  @Override
  public Write build() {
    return new V1Write() {
      @Override
      public InsertableRelation toInsertableRelation() {
        return (data, ignored) -> {
          if (overwrite == null) {
            SqlWrite.append(table, entry, data);
          } else {
            SqlWrite.overwrite(table, entry, data, overwrite);
          }
        };
      }
    };
  }
}
