package io.riverbed.flink.catalog;

import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.source.AvroRowTypes;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.flink.sql.HudiTableFactory;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.write.commit.SchemaChangeCommit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Hudi's Flink catalog in {@code dfs} mode: databases are folders under the catalog path, tables
 * are folders in them (each a table's base path), and a table's Flink definition is its schema
 * (from its commits) plus the options, keys and partitions kept in {@link TableOptionsFile}. So
 * {@code INSERT INTO c.db.t} and {@code SELECT FROM c.db.t} need no DDL in later jobs; a table some
 * other writer put in a database folder is listed with what its {@code hoodie.properties} says.
 */
public final class HudiDfsCatalog extends AbstractCatalog {
  private final Path root;
  private final Map<String, String> hadoopOptions;
  private FileSystem fs;

  public HudiDfsCatalog(String name, String defaultDatabase, String catalogPath, Map<String, String> hadoopOptions) {
    super(name, defaultDatabase);
    this.root = new Path(catalogPath);
    this.hadoopOptions = Map.copyOf(hadoopOptions);
  }

  @Override
  public void open() {
    fs = FlinkTables.fileSystem(root.toString(), hadoopOptions);
    try {
      fs.mkdirs(new Path(root, getDefaultDatabase()));
    } catch (IOException e) {
      throw new CatalogException("catalog " + getName() + ": cannot create the default database folder under " + root, e);
    }
  }

  @Override
  public void close() {
  }

  // Databases

  @Override
  public List<String> listDatabases() {
    List<String> out = new ArrayList<>();
    for (FileStatus s : list(root)) {
      if (s.isDirectory() && !s.getPath().getName().startsWith(".")) {
        out.add(s.getPath().getName());
      }
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
    return new CatalogDatabaseImpl(Map.of(), null);
  }

  @Override
  public boolean databaseExists(String databaseName) {
    return isDirectory(new Path(root, databaseName));
  }

  @Override
  public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists) throws DatabaseAlreadyExistException {
    if (databaseExists(name)) {
      if (ignoreIfExists) {
        return;
      }
      throw new DatabaseAlreadyExistException(getName(), name);
    }
    if (!database.getProperties().isEmpty()) {
      throw new CatalogException("catalog " + getName() + ": database " + name + ": the dfs mode keeps no database "
          + "properties, got " + database.getProperties().keySet());
    }
    mkdirs(new Path(root, name));
  }

  @Override
  public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
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
    delete(new Path(root, name));
  }

  @Override
  public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": the dfs mode keeps no database properties to alter");
  }

  // Tables

  @Override
  public List<String> listTables(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
    List<String> out = new ArrayList<>();
    for (FileStatus s : list(new Path(root, databaseName))) {
      if (s.isDirectory() && Table.exists(fs, s.getPath())) {
        out.add(s.getPath().getName());
      }
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public List<String> listViews(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
    return List.of();
  }

  @Override
  public boolean tableExists(ObjectPath tablePath) {
    return Table.exists(fs, basePath(tablePath));
  }

  @Override
  public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException {
    if (!tableExists(tablePath)) {
      throw new TableNotExistException(getName(), tablePath);
    }
    Path basePath = basePath(tablePath);
    Table table = Table.open(fs, basePath);
    TableOptionsFile definition = TableOptionsFile.read(fs, basePath).orElseGet(() -> fromTableConfig(table.config()));
    Schema avro = TableSchemaResolver.resolve(table, table.refreshTimeline()).orElseThrow(() -> new CatalogException(
        "catalog " + getName() + ": table " + tablePath.getFullName() + " at " + basePath + " has no schema (no commit and no "
            + "create schema in its hoodie.properties)"));
    RowType rowType = AvroRowTypes.toRowType(TableSchemas.removeMetaFields(avro));
    org.apache.flink.table.api.Schema.Builder schema = org.apache.flink.table.api.Schema.newBuilder();
    for (RowType.RowField field : rowType.getFields()) {
      DataType type = TypeConversions.fromLogicalToDataType(field.getType());
      schema.column(field.getName(), definition.primaryKey().contains(field.getName()) ? type.notNull() : type);
    }
    if (!definition.primaryKey().isEmpty()) {
      if (definition.constraintName() != null) {
        schema.primaryKeyNamed(definition.constraintName(), definition.primaryKey());
      } else {
        schema.primaryKey(definition.primaryKey());
      }
    }
    Map<String, String> options = new HashMap<>(definition.options());
    options.put(FactoryUtil.CONNECTOR.key(), HudiTableFactory.IDENTIFIER);
    options.put(HudiConnectorOptions.PATH.key(), basePath.toString());
    return CatalogTable.of(schema.build(), definition.comment(), definition.partitionKeys(), options);
  }

  @Override
  public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException, DatabaseNotExistException {
    if (!databaseExists(tablePath.getDatabaseName())) {
      throw new DatabaseNotExistException(getName(), tablePath.getDatabaseName());
    }
    if (!(table instanceof ResolvedCatalogTable resolved)) {
      throw new CatalogException("catalog " + getName() + ": " + tablePath.getFullName() + ": the hudi catalog holds "
          + "tables only, not views");
    }
    if (tableExists(tablePath)) {
      if (ignoreIfExists) {
        return;
      }
      throw new TableAlreadyExistException(getName(), tablePath);
    }
    Map<String, String> given = givenOptions(tablePath, resolved.getOptions());
    Path basePath = basePath(tablePath);
    Map<String, String> withLocation = new HashMap<>(given);
    withLocation.put(FactoryUtil.CONNECTOR.key(), HudiTableFactory.IDENTIFIER);
    withLocation.put(HudiConnectorOptions.PATH.key(), basePath.toString());
    RowType rowType = (RowType) resolved.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
    String name = getName() + "." + tablePath.getFullName();
    Map<String, String> writerOptions;
    try {
      writerOptions = HudiTableFactory.resolveOptions(name, tablePath.getObjectName(), resolved.copy(withLocation), rowType);
    } catch (org.apache.flink.table.api.ValidationException e) {
      throw new CatalogException(e.getMessage(), e);
    }
    FlinkWriteOptions options = FlinkWriteOptions.fromMap(writerOptions);
    FlinkTables.openOrCreate(options, RowTypeAvroConverter.toAvroSchema(rowType, options.tableName()));
    var pk = resolved.getResolvedSchema().getPrimaryKey();
    new TableOptionsFile(given, pk.map(k -> k.getColumns()).orElse(List.of()), pk.map(k -> k.getName()).orElse(null),
        resolved.getPartitionKeys(), resolved.getComment()).write(fs, basePath);
  }

  @Override
  public void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
      throws TableNotExistException {
    if (!tableExists(tablePath)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), tablePath);
    }
    CatalogTable current = (CatalogTable) getTable(tablePath);
    List<org.apache.flink.table.api.Schema.UnresolvedColumn> before = current.getUnresolvedSchema().getColumns();
    List<org.apache.flink.table.api.Schema.UnresolvedColumn> after = newTable.getUnresolvedSchema().getColumns();
    if (!(newTable instanceof ResolvedCatalogTable altered)
        || after.size() < before.size() || !after.subList(0, before.size()).equals(before)
        || !Objects.equals(current.getUnresolvedSchema().getPrimaryKey().map(k -> k.getColumnNames()),
            newTable.getUnresolvedSchema().getPrimaryKey().map(k -> k.getColumnNames()))
        || !current.getPartitionKeys().equals(altered.getPartitionKeys())) {
      throw new CatalogException("catalog " + getName() + ": " + tablePath.getFullName() + ": ALTER TABLE changes the "
          + "table's options (SET/RESET) and adds nullable columns at the end (ADD); other changes of its columns, "
          + "primary key or partitions are not available through the catalog");
    }
    Path basePath = basePath(tablePath);
    if (after.size() > before.size()) {
      addColumns(tablePath, altered, after.subList(before.size(), after.size()).stream().map(c -> c.getName()).toList());
    }
    Map<String, String> given = givenOptions(tablePath, newTable.getOptions());
    TableOptionsFile definition = TableOptionsFile.read(fs, basePath).orElseGet(() -> fromTableConfig(Table.open(fs, basePath).config()));
    definition.withOptions(given).write(fs, basePath);
  }

  /** Commits the table's schema with {@code added} (nullable, physical) at the end, as Hudi's ALTER TABLE ADD COLUMNS. */
  private void addColumns(ObjectPath tablePath, ResolvedCatalogTable altered, List<String> added) {
    String statement = "catalog " + getName() + ": ALTER TABLE " + tablePath.getFullName() + " ADD ";
    RowType rowType = (RowType) altered.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
    for (String name : added) {
      var column = altered.getResolvedSchema().getColumn(name).orElseThrow();
      if (!column.isPhysical() || !column.getDataType().getLogicalType().isNullable()) {
        throw new CatalogException(statement + name + ": only nullable physical columns can be added (files written "
            + "before have no value for it)");
      }
    }
    Table table = Table.open(fs, basePath(tablePath)).prepareForWrite();
    Schema current = TableSchemas.removeMetaFields(TableSchemaResolver.resolve(table, table.refreshTimeline())
        .orElseThrow(() -> new CatalogException(statement + String.join(", ", added) + ": the table has no schema yet")));
    Schema declared = RowTypeAvroConverter.toAvroSchema(rowType, current.getName());
    List<Schema.Field> fields = new ArrayList<>();
    current.getFields().forEach(f -> fields.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal())));
    for (String name : added) {
      fields.add(new Schema.Field(name, declared.getField(name).schema(), null, JsonProperties.NULL_VALUE));
    }
    Schema changed = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false);
    changed.setFields(fields);
    SchemaChangeCommit.commit(table, changed, "flink-catalog", statement + String.join(", ", added));
  }

  @Override
  public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists) throws TableNotExistException {
    if (!tableExists(tablePath)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), tablePath);
    }
    delete(basePath(tablePath));
  }

  @Override
  public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists) {
    throw new CatalogException("catalog " + getName() + ": renaming a table is not available (its folder is its base path, "
        + "which its files' metadata names)");
  }

  // Functions, partitions and statistics: none kept

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

  /** The folder of a table: {@code catalog.path/database/table}. */
  Path basePath(ObjectPath tablePath) {
    return new Path(new Path(root, tablePath.getDatabaseName()), tablePath.getObjectName());
  }

  /** The options a table's DDL gave, without those the catalog sets; a foreign connector or another path is refused. */
  private Map<String, String> givenOptions(ObjectPath tablePath, Map<String, String> options) {
    Map<String, String> given = new HashMap<>(options);
    String connector = given.remove(FactoryUtil.CONNECTOR.key());
    if (connector != null && !connector.equals(HudiTableFactory.IDENTIFIER)) {
      throw new CatalogException("catalog " + getName() + ": " + tablePath.getFullName() + ": the hudi catalog holds "
          + "'connector' = 'hudi' tables only, got '" + connector + "'");
    }
    String path = given.remove(HudiConnectorOptions.PATH.key());
    if (path != null && !new Path(path).equals(basePath(tablePath))) {
      throw new CatalogException("catalog " + getName() + ": " + tablePath.getFullName() + ": the catalog keeps the table at "
          + basePath(tablePath) + "; drop the 'path' option (got '" + path + "')");
    }
    return given;
  }

  /** A table no catalog created: its definition from its {@code hoodie.properties}. */
  private static TableOptionsFile fromTableConfig(TableConfig config) {
    Map<String, String> options = new HashMap<>();
    options.put(HudiConnectorOptions.TABLE_TYPE.key(), config.type().name());
    options.put(HudiConnectorOptions.TABLE_NAME.key(), config.name());
    config.precombineField().ifPresent(f -> options.put(HudiConnectorOptions.PRECOMBINE_FIELD.key(), f));
    return new TableOptionsFile(options, config.recordKeyFields(), null, config.partitionFields(), null);
  }

  private FileStatus[] list(Path dir) {
    try {
      return fs.exists(dir) ? fs.listStatus(dir) : new FileStatus[0];
    } catch (IOException e) {
      throw new UncheckedIOException("catalog " + getName() + ": cannot list " + dir, e);
    }
  }

  private boolean isDirectory(Path dir) {
    try {
      return fs.exists(dir) && fs.getFileStatus(dir).isDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException("catalog " + getName() + ": cannot read " + dir, e);
    }
  }

  private void mkdirs(Path dir) {
    try {
      fs.mkdirs(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("catalog " + getName() + ": cannot create " + dir, e);
    }
  }

  private void delete(Path dir) {
    try {
      fs.delete(dir, true);
    } catch (IOException e) {
      throw new UncheckedIOException("catalog " + getName() + ": cannot delete " + dir, e);
    }
  }
}
