package io.riverbed.hive;

import io.riverbed.format.options.SecretOptions;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.StatsSetupConst;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.AlreadyExistsException;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.EnvironmentContext;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.thrift.TException;

/**
 * The calls a sync makes to a Hive Metastore over thrift (Hive 3.1's client), each failure
 * turned into a {@link HiveSyncException} that names the metastore, database and table.
 */
public final class MetastoreClient implements AutoCloseable {
  private final IMetaStoreClient client;
  private final String uris;

  private MetastoreClient(IMetaStoreClient client, String uris) {
    this.client = client;
    this.uris = uris;
  }

  /**
   * Connects to the metastore at {@code uris} (thrift, comma separated); other metastore settings
   * ({@code hive.metastore.*}, {@code metastore.*}) come from {@code conf}.
   *
   * @throws HiveSyncException naming the URIs when no metastore answers
   */
  public static MetastoreClient connect(String uris, Configuration conf) {
    Configuration c = new Configuration(conf);
    MetastoreConf.setVar(c, MetastoreConf.ConfVars.THRIFT_URIS, uris);
    try {
      return new MetastoreClient(new HiveMetaStoreClient(c), uris);
    } catch (TException | RuntimeException e) {
      throw new HiveSyncException(SecretOptions.redactText("cannot connect to the Hive Metastore at " + uris + ": "
          + rootMessage(e)), e);
    }
  }

  /** The metastore's URIs, for messages (a password in a URI's user info redacted). */
  public String uris() {
    return SecretOptions.redactText(uris);
  }

  public boolean databaseExists(String database) {
    try {
      client.getDatabase(database);
      return true;
    } catch (NoSuchObjectException e) {
      return false;
    } catch (TException e) {
      throw failure("look up database " + database, e);
    }
  }

  /** Creates the database (as Hudi does: described as created by the sync); one that appeared meanwhile is fine. */
  public void createDatabase(String database) {
    try {
      client.createDatabase(new Database(database, "automatically created by hoodie", null, null));
    } catch (AlreadyExistsException e) {
      // another sync created it between the check and this call
    } catch (TException e) {
      throw failure("create database " + database, e);
    }
  }

  /** Every database's name. */
  public List<String> listDatabases() {
    try {
      return client.getAllDatabases();
    } catch (TException e) {
      throw failure("list the databases", e);
    }
  }

  /** The database called {@code database}, or empty when the metastore has none. */
  public Optional<Database> database(String database) {
    try {
      return Optional.of(client.getDatabase(database));
    } catch (NoSuchObjectException e) {
      return Optional.empty();
    } catch (TException e) {
      throw failure("read database " + database, e);
    }
  }

  /** Creates {@code database} as given (name, description, location, parameters); false when one of that name exists. */
  public boolean createDatabase(Database database) {
    try {
      client.createDatabase(database);
      return true;
    } catch (AlreadyExistsException e) {
      return false;
    } catch (TException e) {
      throw failure("create database " + database.getName(), e);
    }
  }

  /** Replaces the definition (description, location, parameters) of the database {@code database} names. */
  public void alterDatabase(Database database) {
    try {
      client.alterDatabase(database.getName(), database);
    } catch (TException e) {
      throw failure("alter database " + database.getName(), e);
    }
  }

  /**
   * Drops {@code database} (with its tables when {@code cascade}); the metastore deletes the folders of
   * its managed tables. False when there was no such database.
   */
  public boolean dropDatabase(String database, boolean cascade) {
    try {
      client.dropDatabase(database, true, false, cascade);
      return true;
    } catch (NoSuchObjectException e) {
      return false;
    } catch (TException e) {
      throw failure("drop database " + database, e);
    }
  }

  /** The names of the tables in {@code database}. */
  public List<String> listTables(String database) {
    try {
      return client.getAllTables(database);
    } catch (TException e) {
      throw failure("list the tables of database " + database, e);
    }
  }

  /** The table, or empty when the metastore has none of that name. */
  public Optional<Table> findTable(String database, String table) {
    try {
      return Optional.of(client.getTable(database, table));
    } catch (NoSuchObjectException e) {
      return Optional.empty();
    } catch (TException e) {
      throw failure("read table " + database + "." + table, e);
    }
  }

  /**
   * Drops the table's entry; the metastore also deletes its folder when the table is managed (not
   * {@code EXTERNAL}). False when there was no such table.
   */
  public boolean dropTable(String database, String table) {
    try {
      client.dropTable(database, table, true, false);
      return true;
    } catch (NoSuchObjectException e) {
      return false;
    } catch (TException e) {
      throw failure("drop table " + database + "." + table, e);
    }
  }

  public boolean tableExists(String database, String table) {
    try {
      return client.tableExists(database, table);
    } catch (TException e) {
      throw failure("look up table " + database + "." + table, e);
    }
  }

  public Table getTable(String database, String table) {
    try {
      return client.getTable(database, table);
    } catch (TException e) {
      throw failure("read table " + database + "." + table, e);
    }
  }

  public void createTable(Table table) {
    try {
      client.createTable(table);
    } catch (TException e) {
      throw failure("create table " + table.getDbName() + "." + table.getTableName(), e);
    }
  }

  /** Replaces the table's definition; {@code cascade} also changes the columns of every partition. */
  public void alterTable(Table table, boolean cascade) {
    EnvironmentContext context = new EnvironmentContext();
    if (cascade) {
      context.putToProperties(StatsSetupConst.CASCADE, StatsSetupConst.TRUE);
    }
    try {
      client.alter_table_with_environmentContext(table.getDbName(), table.getTableName(), table, context);
    } catch (TException e) {
      throw failure("alter table " + table.getDbName() + "." + table.getTableName(), e);
    }
  }

  /** Replaces the definition of the table now called {@code name} by {@code table}, which may carry a new name. */
  public void alterTable(String name, Table table) {
    try {
      client.alter_table(table.getDbName(), name, table);
    } catch (TException e) {
      throw failure("alter table " + table.getDbName() + "." + name, e);
    }
  }

  public List<Partition> listPartitions(String database, String table) {
    try {
      return client.listPartitions(database, table, (short) -1);
    } catch (TException e) {
      throw failure("list the partitions of " + database + "." + table, e);
    }
  }

  public void addPartitions(String database, String table, List<Partition> partitions) {
    try {
      client.add_partitions(partitions, true, false);
    } catch (TException e) {
      throw failure("add " + partitions.size() + " partitions to " + database + "." + table, e);
    }
  }

  public void alterPartitions(String database, String table, List<Partition> partitions) {
    try {
      client.alter_partitions(database, table, partitions, null);
    } catch (TException e) {
      throw failure("alter " + partitions.size() + " partitions of " + database + "." + table, e);
    }
  }

  /** Drops a partition's metastore entry; the files stay (the table is external to the metastore). */
  public void dropPartition(String database, String table, List<String> values) {
    try {
      client.dropPartition(database, table, values, false);
    } catch (NoSuchObjectException e) {
      // already gone
    } catch (TException e) {
      throw failure("drop partition " + values + " of " + database + "." + table, e);
    }
  }

  @Override
  public void close() {
    client.close();
  }

  private HiveSyncException failure(String what, TException e) {
    return new HiveSyncException(SecretOptions.redactText("Hive Metastore at " + uris + ": cannot " + what + ": "
        + rootMessage(e)), e);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    return t == e ? message : e.getMessage() + " (" + message + ")";
  }
}
