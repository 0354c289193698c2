package io.riverbed.flink.catalog;

import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
public final class HudiDfsCatalog extends TablesOnlyCatalog {
  private final Path root;
  private final HudiTables tables;
  private FileSystem fs;

  public HudiDfsCatalog(String name, String defaultDatabase, String catalogPath, Map<String, String> hadoopOptions) {
    super(name, defaultDatabase);
    this.root = new Path(catalogPath);
    this.tables = new HudiTables(name, hadoopOptions);
  }

  @Override
  public void open() {
    fs = tables.fileSystem(root.toString());
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
  void removeDatabase(String name, boolean cascade) {
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
  public boolean tableExists(ObjectPath tablePath) {
    return Table.exists(fs, basePath(tablePath));
  }

  @Override
  public CatalogBaseTable getTable(ObjectPath tablePath) throws TableNotExistException {
    if (!tableExists(tablePath)) {
      throw new TableNotExistException(getName(), tablePath);
    }
    return tables.catalogTable(tablePath, basePath(tablePath).toString(), definition(tablePath));
  }

  @Override
  public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException, DatabaseNotExistException {
    if (!databaseExists(tablePath.getDatabaseName())) {
      throw new DatabaseNotExistException(getName(), tablePath.getDatabaseName());
    }
    ResolvedCatalogTable ddl = tables.requireTable(tablePath, table);
    if (tableExists(tablePath)) {
      if (ignoreIfExists) {
        return;
      }
      throw new TableAlreadyExistException(getName(), tablePath);
    }
    String path = ddl.getOptions().get(HudiConnectorOptions.PATH.key());
    if (path != null && !new Path(path).equals(basePath(tablePath))) {
      throw new CatalogException(tables.name(tablePath) + ": the catalog keeps the table at " + basePath(tablePath)
          + "; drop the 'path' option (got '" + path + "')");
    }
    Map<String, String> given = tables.givenOptions(tablePath, ddl.getOptions());
    tables.create(tablePath, ddl, given, basePath(tablePath).toString());
    TableOptionsFile.write(fs, basePath(tablePath), HudiTables.definitionOf(ddl, given));
  }

  @Override
  void changeTable(ObjectPath tablePath, CatalogBaseTable newTable) throws TableNotExistException {
    tables.alter(tablePath, basePath(tablePath).toString(), (CatalogTable) getTable(tablePath), newTable);
    TableOptionsFile.write(fs, basePath(tablePath),
        definition(tablePath).withOptions(tables.givenOptions(tablePath, newTable.getOptions())));
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

  /** The folder of a table: {@code catalog.path/database/table}. */
  Path basePath(ObjectPath tablePath) {
    return new Path(new Path(root, tablePath.getDatabaseName()), tablePath.getObjectName());
  }

  /** The kept definition, or for a table no catalog created, what its {@code hoodie.properties} says. */
  private TableDefinition definition(ObjectPath tablePath) {
    Path basePath = basePath(tablePath);
    return TableOptionsFile.read(fs, basePath)
        .orElseGet(() -> TableDefinition.fromTableConfig(Table.open(fs, basePath).config()));
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
