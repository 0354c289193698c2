package io.riverbed.spark;

import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A loaded Hudi table as Spark sees it: batch reads only. */
public final class HudiTable implements SupportsRead {
  private final LoadedTable table;

  HudiTable(LoadedTable table) {
    this.table = table;
  }

  @Override
  public String name() {
    return table.name();
  }

  @Override
  public StructType schema() {
    return table.sparkSchema();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return new HudiScanBuilder(table);
  }

  LoadedTable loaded() {
    return table;
  }
}
