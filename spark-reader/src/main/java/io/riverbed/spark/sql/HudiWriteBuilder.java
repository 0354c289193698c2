package io.riverbed.spark.sql;

import io.riverbed.spark.LoadedTable;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.InsertableRelation;

/**
 * Spark's write of a SQL statement into a Hudi table ({@code INSERT INTO}, the write of a CTAS):
 * a V1 write, so that Spark hands the query's rows as a DataFrame to {@link SqlInsert}, which runs
 * them through the batch writer {@code df.write.format("hudi")} uses.
 */
public final class HudiWriteBuilder implements WriteBuilder {
  private final LoadedTable table;
  private final CatalogEntry entry;

  public HudiWriteBuilder(LoadedTable table, CatalogEntry entry, LogicalWriteInfo info) {
    this.table = table;
    this.entry = entry;
  }

  @Override
  public Write build() {
    return new V1Write() {
      @Override
      public InsertableRelation toInsertableRelation() {
        return (data, overwrite) -> SqlInsert.append(table, entry, data);
      }
    };
  }
}
