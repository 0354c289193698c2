package io.riverbed.flink.catalog;

import java.util.List;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;

/**
 * A Flink catalog of databases and tables only, what both modes of the hudi catalog are: the checks
 * of dropping a database and altering or dropping a table that both modes make; and it keeps no views,
 * functions, declared partitions (a Hudi table's partitions are made by its writes) or statistics,
 * and says so naming the catalog.
 */
abstract class TablesOnlyCatalog extends AbstractCatalog {

  TablesOnlyCatalog(String name, String defaultDatabase) {
    super(name, defaultDatabase);
  }

  @Override
  public final void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
      throws DatabaseNotExistException, DatabaseNotEmptyException {
    if (!databaseExists(name)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new DatabaseNotExistException(getName(), name);
    }
    if (!cascade && !listTables(name).isEmpty()) {
      throw new DatabaseNotEmptyException(getName(), name);
    }
    removeDatabase(name, cascade);
  }

  /** Removes the database {@code name}, which exists, with its tables when {@code cascade} (else it has none). */
  abstract void removeDatabase(String name, boolean cascade);

  @Override
  public final void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
      throws TableNotExistException {
    if (!tableExists(tablePath)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), tablePath);
    }
    changeTable(tablePath, newTable);
  }

  /**
   * {@code ALTER TABLE} of the table at {@code tablePath}, which exists: options set or reset, nullable
   * columns added ({@link HudiTables#alter}).
   */
  abstract void changeTable(ObjectPath tablePath, CatalogBaseTable newTable) throws TableNotExistException;

  @Override
  public List<String> listViews(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
    return List.of();
  }

  // Functions

  @Override
  public List<String> listFunctions(String dbName) {
    return List.of();
  }

  @Override
  public CatalogFunction getFunction(ObjectPath functionPath) throws FunctionNotExistException {
    throw new FunctionNotExistException(getName(), functionPath);
  }

  @Override
  public boolean functionExists(ObjectPath functionPath) {
    return false;
  }

  @Override
  public void createFunction(ObjectPath functionPath, CatalogFunction function, boolean ignoreIfExists) {
    throw new CatalogException("catalog " + getName() + ": keeps no functions; use CREATE TEMPORARY FUNCTION");
  }

  @Override
  public void alterFunction(ObjectPath functionPath, CatalogFunction newFunction, boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": keeps no functions");
  }

  @Override
  public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists) throws FunctionNotExistException {
    if (!ignoreIfNotExists) {
      throw new FunctionNotExistException(getName(), functionPath);
    }
  }

  // Partitions

  @Override
  public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath) {
    return List.of();
  }

  @Override
  public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return List.of();
  }

  @Override
  public List<CatalogPartitionSpec> listPartitionsByFilter(ObjectPath tablePath, List<Expression> filters) {
    return List.of();
  }

  @Override
  public CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) throws PartitionNotExistException {
    throw new PartitionNotExistException(getName(), tablePath, partitionSpec);
  }

  @Override
  public boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return false;
  }

  @Override
  public void createPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec, CatalogPartition partition,
      boolean ignoreIfExists) {
    throw new CatalogException("catalog " + getName() + ": partitions are made by writes, not declared");
  }

  @Override
  public void dropPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec, boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": dropping a partition is not available through the catalog");
  }

  @Override
  public void alterPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec, CatalogPartition newPartition,
      boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": partitions have no properties to alter");
  }

  // Statistics

  @Override
  public CatalogTableStatistics getTableStatistics(ObjectPath tablePath) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getTableColumnStatistics(ObjectPath tablePath) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public CatalogTableStatistics getPartitionStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getPartitionColumnStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public void alterTableStatistics(ObjectPath tablePath, CatalogTableStatistics tableStatistics, boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": keeps no statistics");
  }

  @Override
  public void alterTableColumnStatistics(ObjectPath tablePath, CatalogColumnStatistics columnStatistics,
      boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": keeps no statistics");
  }

  @Override
  public void alterPartitionStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec,
      CatalogTableStatistics partitionStatistics, boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": keeps no statistics");
  }

  @Override
  public void alterPartitionColumnStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec,
      CatalogColumnStatistics columnStatistics, boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": keeps no statistics");
  }
}
