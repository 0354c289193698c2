package io.riverbed.spark.sql;

import io.riverbed.spark.LoadedTable;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsOverwrite;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.InsertableRelation;

/**
 * Spark's write of a SQL statement into a Hudi table ({@code INSERT INTO}, the write of a CTAS):
 * a V1 write, so that Spark hands the query's rows as a DataFrame to {@link SqlInsert}, which runs
 * them through the batch writer {@code df.write.format("hudi")} uses. A static {@code INSERT OVERWRITE}
 * reaches it (the table claims the truncate and overwrite capabilities) only to be refused by name;
 * Spark itself refuses a dynamic one on a V1 write.
 */
public final class HudiWriteBuilder implements SupportsOverwrite {
  private final LoadedTable table;
  private final CatalogEntry entry;

  public HudiWriteBuilder(LoadedTable table, CatalogEntry entry, LogicalWriteInfo info) {
    this.table = table;
    this.entry = entry;
  }

  @Override
  public WriteBuilder overwrite(Filter[] filters) {
    throw overwriteUnsupported();
  }

  private UnsupportedOperationException overwriteUnsupported() {
    return new UnsupportedOperationException("INSERT OVERWRITE into " + entry.name() + " is not supported by Riverbed "
        + "yet (Hudi runs it as insert_overwrite or insert_overwrite_table); use INSERT INTO");
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
