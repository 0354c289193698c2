package io.riverbed.spark;

import io.riverbed.spark.sql.CatalogEntry;
import io.riverbed.spark.sql.HudiWriteBuilder;
import io.riverbed.spark.sql.SqlWrite;
import io.riverbed.spark.sql.TablePartitions;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.SupportsPartitionManagement;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A loaded Hudi table as Spark sees it: batch reads, SQL writes ({@code INSERT INTO}, {@code INSERT
 * OVERWRITE}, CTAS, {@code DROP PARTITION}) through
 * Spark's V1 write fallback into the same batch writer as {@code df.write}, and its partitions
 * ({@code SHOW PARTITIONS}). It accepts any query schema: meta columns and the column order are
 * resolved by {@link SqlWrite}, as Hudi's SQL layer resolves them.
 */
public final class HudiTable implements SupportsRead, SupportsWrite, SupportsPartitionManagement {
  private final LoadedTable table;
  private final CatalogEntry entry;
  private final TablePartitions partitions;
  /** Spark resolves no write into the table ({@code ACCEPT_ANY_SCHEMA}): {@link SqlWrite} matches the columns itself. */
  private final boolean acceptsAnySchema;

  HudiTable(LoadedTable table) {
    this(table, CatalogEntry.ofPath(table.table().basePath().toString()));
  }

  HudiTable(LoadedTable table, CatalogEntry entry) {
    this(table, entry, true);
  }

  private HudiTable(LoadedTable table, CatalogEntry entry, boolean acceptsAnySchema) {
    this.table = table;
    this.entry = entry;
    this.partitions = new TablePartitions(table, entry.name());
    this.acceptsAnySchema = acceptsAnySchema;
  }

  CatalogEntry entry() {
    return entry;
  }

  /**
   * This table as the target of a {@code MERGE INTO}: without {@code ACCEPT_ANY_SCHEMA}, so Spark
   * resolves the statement's columns against the table (with it, Spark leaves a merge unresolved
   * for the source to resolve), for {@link HudiRowLevelStatements} to run.
   */
  HudiTable asMergeTarget() {
    return acceptsAnySchema ? new HudiTable(table, entry, false) : this;
  }

  boolean acceptsAnySchema() {
    return acceptsAnySchema;
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
  public Transform[] partitioning() {
    return partitions.schema().fieldNames().length == 0 ? new Transform[0]
        : java.util.Arrays.stream(partitions.schema().fieldNames()).map(Expressions::identity).toArray(Transform[]::new);
  }

  @Override
  public Map<String, String> properties() {
    Map<String, String> properties = new HashMap<>(entry.properties());
    properties.put(TableCatalog.PROP_PROVIDER, "hudi");
    properties.put(TableCatalog.PROP_LOCATION, table.table().basePath().toString());
    return properties;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return acceptsAnySchema
        ? Set.of(TableCapability.BATCH_READ, TableCapability.V1_BATCH_WRITE, TableCapability.ACCEPT_ANY_SCHEMA,
            TableCapability.TRUNCATE, TableCapability.OVERWRITE_BY_FILTER)
        : Set.of(TableCapability.BATCH_READ, TableCapability.V1_BATCH_WRITE, TableCapability.TRUNCATE,
            TableCapability.OVERWRITE_BY_FILTER);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return new HudiScanBuilder(table);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new HudiWriteBuilder(table, entry, info);
  }

  @Override
  public StructType partitionSchema() {
    return partitions.schema();
  }

  @Override
  public void createPartition(InternalRow ident, Map<String, String> properties) {
    throw partitions.unsupported("ALTER TABLE ADD PARTITION");
  }

  /** {@code ALTER TABLE t DROP PARTITION (...)}: Hudi's {@code delete_partition}, a replacecommit of its file groups. */
  @Override
  public boolean dropPartition(InternalRow ident) {
    SqlWrite.deletePartition(table, entry, SparkSession.active(), partitions.pathOf(ident));
    return true;
  }

  @Override
  public void replacePartitionMetadata(InternalRow ident, Map<String, String> properties) {
    throw partitions.unsupported("ALTER TABLE PARTITION ... SET");
  }

  @Override
  public Map<String, String> loadPartitionMetadata(InternalRow ident) {
    return Map.of();
  }

  @Override
  public InternalRow[] listPartitionIdentifiers(String[] names, InternalRow ident) {
    return partitions.list(names, ident);
  }

  LoadedTable loaded() {
    return table;
  }
}
