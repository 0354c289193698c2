package io.riverbed.flink.catalog;

import io.riverbed.flink.commit.FlinkHiveSync;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.hive.MetastoreClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.api.Database;

/**
 * Hudi's Flink catalog in {@code hms} mode, as Apache Hudi 0.15's {@code HoodieHiveCatalog}: databases
 * are Hive databases (located under {@code catalog.path} when it is set, else the metastore's
 * warehouse), and each table is a Hudi table on storage registered in the metastore as a Hudi table
 * Spark and Hive read ({@link HiveTableEntry}), which also keeps its Flink DDL. {@code getTable}
 * adds the {@code hive_sync.*} options that make writes through the catalog sync the table after
 * their commits (so partitions they write appear in the metastore). Managed tables (the default;
 * {@code table.external} makes them external) lose their data with {@code DROP TABLE}, as in Hive.
 */
public final class HudiHmsCatalog extends TablesOnlyCatalog {
  /** The database property Flink's Hive dialect uses for a location, as Hudi's catalog reads it. */
  static final String DATABASE_LOCATION = "hive.database.location-uri";

  private final MetastoreSettings metastore;
  private final String catalogPath;
  private final boolean external;
  private final HudiTables tables;
  private MetastoreClient client;

  /**
   * @param catalogPath where databases are created when their DDL gives no location; null: the metastore's warehouse
   * @param external register tables as {@code EXTERNAL} (their data stays when dropped)
   * @param hadoopOptions the catalog's {@code hadoop.*} options (storage and metastore settings)
   */
  HudiHmsCatalog(String name, String defaultDatabase, MetastoreSettings metastore, String catalogPath, boolean external,
      Map<String, String> hadoopOptions) {
    super(name, defaultDatabase);
    this.metastore = metastore;
    this.catalogPath = catalogPath;
    this.external = external;
    this.tables = new HudiTables(name, hadoopOptions);
  }

  @Override
  public void open() {
    client = call("connect", () -> MetastoreClient.connect(metastore.uris(), metastore.conf()));
    if (!databaseExists(getDefaultDatabase())) {
      call("create database " + getDefaultDatabase(),
          () -> client.createDatabase(new Database(getDefaultDatabase(), "default database", location(getDefaultDatabase()), null)));
    }
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
      client = null;
    }
  }

  // Databases

  @Override
  public List<String> listDatabases() {
    return call("list databases", client::listDatabases);
  }

  @Override
  public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
    Database database = call("read database " + databaseName, () -> client.database(databaseName))
        .orElseThrow(() -> new DatabaseNotExistException(getName(), databaseName));
    Map<String, String> properties = new HashMap<>(database.getParameters() == null ? Map.of() : database.getParameters());
    if (database.getLocationUri() != null) {
      properties.put(DATABASE_LOCATION, database.getLocationUri());
    }
    return new CatalogDatabaseImpl(properties, database.getDescription());
  }

  @Override
  public boolean databaseExists(String databaseName) {
    return call("read database " + databaseName, () -> client.database(databaseName)).isPresent();
  }

  @Override
  public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists) throws DatabaseAlreadyExistException {
    Map<String, String> properties = new HashMap<>(database.getProperties());
    String location = properties.remove(DATABASE_LOCATION);
    Database hive = new Database(name, database.getComment(), location != null ? location : location(name), properties);
    if (!call("create database " + name, () -> client.createDatabase(hive)) && !ignoreIfExists) {
      throw new DatabaseAlreadyExistException(getName(), name);
    }
  }

  @Override
  void removeDatabase(String name, boolean cascade) {
    run("drop database " + name, () -> client.dropDatabase(name, cascade));
  }

  @Override
  public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists)
      throws DatabaseNotExistException {
    var found = call("read database " + name, () -> client.database(name));
    if (found.isEmpty()) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new DatabaseNotExistException(getName(), name);
    }
    Database database = found.get();
    Map<String, String> properties = new HashMap<>(newDatabase.getProperties());
    String location = properties.remove(DATABASE_LOCATION);
    if (location != null) {
      database.setLocationUri(location);
    }
    database.setParameters(properties);
    if (newDatabase.getComment() != null) {
      database.setDescription(newDatabase.getComment());
    }
    run("alter database " + name, () -> client.alterDatabase(database));
  }

  // Tables

  @Override
  public List<String> listTables(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
    return call("list the tables of " + databaseName, () -> client.listTables(databaseName)).stream().sorted().toList();
  }

  @Override
  public boolean tableExists(ObjectPath tablePath) {
    return call("read table " + tablePath.getFullName(),
        () -> client.findTable(tablePath.getDatabaseName(), tablePath.getObjectName())).isPresent();
  }

  @Override
  public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException {
    var entry = hudiEntry(tablePath);
    String location = HiveTableEntry.location(entry);
    Table table = Table.open(tables.fileSystem(location), new Path(location));
    TableDefinition definition = HiveTableEntry.definition(entry, table.config());
    Map<String, String> options = new HashMap<>(definition.options());
    // a table registered by Spark or by a sync (<t>_ro, <t>_rt) syncs under its Hudi name, as its writers sync it
    String syncName = HiveTableEntry.isFlinkTable(entry) ? tablePath.getObjectName() : table.config().name();
    hiveSyncOptions(tablePath.getDatabaseName(), syncName).forEach(options::putIfAbsent);
    return tables.catalogTable(tablePath, location, definition.withOptions(options));
  }

  @Override
  public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException, DatabaseNotExistException {
    String database = tablePath.getDatabaseName();
    Database hiveDatabase = call("read database " + database, () -> client.database(database))
        .orElseThrow(() -> new DatabaseNotExistException(getName(), database));
    ResolvedCatalogTable ddl = tables.requireTable(tablePath, table);
    if (tableExists(tablePath)) {
      if (ignoreIfExists) {
        return;
      }
      throw new TableAlreadyExistException(getName(), tablePath);
    }
    String location = ddl.getOptions().get(HudiConnectorOptions.PATH.key());
    if (location == null || location.isBlank()) {
      location = new Path(new Path(hiveDatabase.getLocationUri()), tablePath.getObjectName()).toString();
    }
    Map<String, String> given = tables.givenOptions(tablePath, ddl.getOptions());
    refuseInconsistentKeys(tablePath, ddl, given);
    String basePath = tables.create(tablePath, ddl, given, location).path();
    Table hudiTable = Table.open(tables.fileSystem(basePath), new Path(basePath));
    var entry = call("register " + tablePath.getFullName(), () -> HiveTableEntry.of(database, tablePath.getObjectName(),
        basePath, hudiTable, HudiTables.definitionOf(ddl, given), external));
    run("register " + tablePath.getFullName(), () -> client.createTable(entry));
  }

  @Override
  void changeTable(ObjectPath tablePath, CatalogBaseTable newTable) throws TableNotExistException {
    var entry = hudiEntry(tablePath);
    if (!HiveTableEntry.isFlinkTable(entry)) {
      throw new CatalogException(tables.name(tablePath) + ": ALTER TABLE is available for tables a Flink catalog "
          + "created; this one was registered by Spark or by a Hive sync");
    }
    String location = HiveTableEntry.location(entry);
    List<String> added = tables.alter(tablePath, location, (CatalogTable) getTable(tablePath), newTable);
    if (!added.isEmpty()) {
      Table hudiTable = Table.open(tables.fileSystem(location), new Path(location));
      run("alter the columns of " + tablePath.getFullName(), () -> HiveTableEntry.setColumns(entry, hudiTable));
    }
    Map<String, String> given = tables.givenOptions(tablePath, newTable.getOptions());
    Map<String, String> supplied = hiveSyncOptions(tablePath.getDatabaseName(), tablePath.getObjectName());
    given.entrySet().removeIf(option -> option.getValue().equals(supplied.get(option.getKey())));
    HiveTableEntry.setOptions(entry, given);
    boolean cascade = !added.isEmpty() && entry.getPartitionKeysSize() > 0;
    run("alter " + tablePath.getFullName(), () -> client.alterTable(entry, cascade));
  }

  @Override
  public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists) throws TableNotExistException {
    boolean dropped = call("drop " + tablePath.getFullName(),
        () -> client.dropTable(tablePath.getDatabaseName(), tablePath.getObjectName()));
    if (!dropped && !ignoreIfNotExists) {
      throw new TableNotExistException(getName(), tablePath);
    }
  }

  @Override
  public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists) {
    throw new CatalogException(tables.name(tablePath) + ": renaming a table is not available through the catalog");
  }

  /**
   * The {@code hive_sync.*} options a table read through the catalog writes with, as Hudi's catalog
   * supplies them: sync to this metastore, into {@code database} as {@code table}, timestamps as timestamps.
   */
  private Map<String, String> hiveSyncOptions(String database, String table) {
    return Map.of(
        FlinkHiveSync.ENABLED, "true",
        FlinkHiveSync.METASTORE_URIS, metastore.uris(),
        FlinkHiveSync.MODE, "hms",
        FlinkHiveSync.SUPPORT_TIMESTAMP, "true",
        FlinkHiveSync.DB, database,
        FlinkHiveSync.TABLE, table);
  }

  /**
   * As Hudi's catalog: a PRIMARY KEY and a record key option, or PARTITIONED BY and a partition path
   * option, that name different columns are refused (the connector alone lets the DDL's clause win).
   */
  private void refuseInconsistentKeys(ObjectPath tablePath, ResolvedCatalogTable ddl, Map<String, String> given) {
    var pk = ddl.getResolvedSchema().getPrimaryKey();
    String recordKey = given.get(FlinkWriteOptions.RECORD_KEY_FIELD);
    if (pk.isPresent() && recordKey != null
        && !Set.copyOf(TableDefinition.columnList(recordKey)).equals(Set.copyOf(pk.get().getColumns()))) {
      throw new CatalogException(tables.name(tablePath) + ": PRIMARY KEY " + pk.get().getColumns() + " and option '"
          + FlinkWriteOptions.RECORD_KEY_FIELD + "' = '" + recordKey + "' name different columns");
    }
    String partitionPath = given.get(FlinkWriteOptions.PARTITION_PATH_FIELD);
    if (ddl.isPartitioned() && partitionPath != null
        && !Set.copyOf(TableDefinition.columnList(partitionPath)).equals(Set.copyOf(ddl.getPartitionKeys()))) {
      throw new CatalogException(tables.name(tablePath) + ": PARTITIONED BY " + ddl.getPartitionKeys() + " and option '"
          + FlinkWriteOptions.PARTITION_PATH_FIELD + "' = '" + partitionPath + "' name different columns");
    }
  }

  /** The metastore entry of a Hudi table; another kind of table is refused naming it. */
  private org.apache.hadoop.hive.metastore.api.Table hudiEntry(ObjectPath tablePath) throws TableNotExistException {
    var entry = call("read table " + tablePath.getFullName(),
        () -> client.findTable(tablePath.getDatabaseName(), tablePath.getObjectName()))
        .orElseThrow(() -> new TableNotExistException(getName(), tablePath));
    if (!HiveTableEntry.isHudiTable(entry)) {
      throw new CatalogException(tables.name(tablePath) + " is not a Hudi table (neither 'connector' = 'hudi' nor "
          + "Spark's provider hudi in its metastore parameters)");
    }
    return entry;
  }

  /** Where a new database goes: {@code catalog.path/<name>}, or null (the metastore's warehouse). */
  private String location(String database) {
    return catalogPath == null ? null : new Path(catalogPath, database).toString();
  }

  private void run(String what, Runnable action) {
    call(what, () -> {
      action.run();
      return null;
    });
  }

  /** Runs a metastore call, its failure a {@link CatalogException} naming this catalog and what it did. */
  private <T> T call(String what, Supplier<T> action) {
    try {
      return action.get();
    } catch (TableException e) {
      throw new CatalogException("catalog " + getName() + ": cannot " + what + ": " + e.getMessage(), e);
    }
  }
}
