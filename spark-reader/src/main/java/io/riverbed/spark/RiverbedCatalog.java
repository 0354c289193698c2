package io.riverbed.spark;

import io.riverbed.format.TableException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.riverbed.spark.sql.CatalogEntry;
import io.riverbed.spark.sql.HiveCatalogSession;
import io.riverbed.spark.sql.HiveTableRegistration;
import io.riverbed.spark.sql.TableAlteration;
import io.riverbed.spark.sql.TableCreation;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.CatalogV2Util;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.DelegatingCatalogExtension;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * Spark's session catalog ({@code spark.sql.catalog.spark_catalog=io.riverbed.spark.RiverbedCatalog})
 * with Riverbed's reader behind tables whose provider is {@code hudi}: Spark 3.5 resolves a
 * metastore table of a DataSource V2-only provider only through a session catalog, so without it
 * {@code SELECT ... FROM lake.trips} cannot reach Riverbed. It also runs Hudi's SQL DDL on such
 * tables: {@code CREATE TABLE} (new or over an existing table), CTAS, {@code ALTER TABLE} (rename,
 * properties, added and widened columns); on a session whose catalog is a Hive metastore it registers
 * and alters them as Hive tables, as Hudi 0.15's catalog does ({@link HiveTableRegistration}). Every
 * other table is the delegate's.
 */
public class RiverbedCatalog extends DelegatingCatalogExtension {
  /** Hudi's table (or serde) property that marks the read-optimized table of a MERGE_ON_READ table ({@code _ro}). */
  public static final String QUERY_AS_RO_TABLE = "hoodie.query.as.ro.table";

  private static final Set<String> PROVIDERS = Set.of("hudi", "riverbed", "org.apache.hudi",
      HudiDataSource.class.getName().toLowerCase(Locale.ROOT), RiverbedDataSource.class.getName().toLowerCase(Locale.ROOT));
  /** Storage properties a metastore table carries that are not read options. */
  private static final Set<String> NOT_READ_OPTIONS = Set.of(QUERY_AS_RO_TABLE, "serialization.format");
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  /** Whether Riverbed reads a table with this provider ({@code USING hudi}, {@code org.apache.hudi}, {@code riverbed} or our class names). */
  public static boolean isHudiProvider(String provider) {
    return provider != null && PROVIDERS.contains(provider.toLowerCase(Locale.ROOT));
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    Table table = super.loadTable(ident);
    return isHudi(table) ? open(ident, table, Map.of(), false) : table;
  }

  /**
   * {@code VERSION AS OF 'v'}, and {@code TIMESTAMP AS OF} a literal ({@link TimeTravelParser}): the
   * table as of instant {@code v} in any of Hudi's forms ({@code as.of.instant}).
   */
  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    Table table = super.loadTable(ident);
    return isHudi(table) ? open(ident, table, Map.of(ReadOption.AS_OF_INSTANT.key(), version), false) : super.loadTable(ident, version);
  }

  /**
   * {@code TIMESTAMP AS OF ts} where {@code ts} is an expression, not a literal (a literal is Hudi's
   * instant, {@link TimeTravelParser}): the table as of the instant whose wall-clock time, in the session
   * time zone, is {@code ts} (a whole second reads up to its last millisecond, as
   * {@code as.of.instant='yyyy-MM-dd HH:mm:ss'} does).
   */
  @Override
  public Table loadTable(Identifier ident, long timestampMicros) throws NoSuchTableException {
    Table table = super.loadTable(ident);
    if (!isHudi(table)) {
      return super.loadTable(ident, timestampMicros);
    }
    ZoneId zone = ZoneId.of(SparkSession.active().sessionState().conf().sessionLocalTimeZone());
    Instant at = Instant.EPOCH.plus(timestampMicros, ChronoUnit.MICROS);
    String asOf = (timestampMicros % 1_000_000 == 0 ? SECONDS : MILLIS).format(at.atZone(zone));
    return open(ident, table, Map.of(ReadOption.AS_OF_INSTANT.key(), asOf), false);
  }

  /**
   * {@code CREATE TABLE t USING hudi}: over a LOCATION that holds a Hudi table, registers it (the
   * schema and partition columns are the table's; a schema or partitioning given in the statement
   * must agree with them); otherwise creates the table from the columns, {@code PARTITIONED BY}
   * and {@code TBLPROPERTIES} given ({@link TableCreation}), at the LOCATION or, for a managed
   * table, under the warehouse, and registers it. The table returned is the one a CTAS writes into.
   */
  @Override
  public Table createTable(Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    if (!isHudiProvider(properties.get(TableCatalog.PROP_PROVIDER))) {
      return super.createTable(ident, columns, partitions, properties);
    }
    String location = properties.get(TableCatalog.PROP_LOCATION);
    boolean located = location != null && !location.isBlank();
    if (located && (columns.length == 0 || holdsTable(location))) {
      return registerExisting(ident, columns, partitions, properties, location);
    }
    StructType schema = CatalogV2Util.v2ColumnsToStructType(columns);
    if (schema.isEmpty()) {
      throw new TableException("CREATE TABLE " + ident + " USING hudi: give the table's columns to create it, "
          + "or LOCATION '<base path of an existing table>' to register one");
    }
    if (HiveCatalogSession.registersHiveTables(SparkSession.active())) {
      return createInHiveCatalog(ident, schema, partitions, properties, located ? location : null);
    }
    Table registered = super.createTable(ident, new Column[0], new Transform[0], properties);
    String base = registered.properties().get(TableCatalog.PROP_LOCATION);
    try {
      TableCreation.create(database(ident), tableName(ident.name()), schema, partitions, properties, base,
          SparkSession.active().sessionState().newHadoopConf());
    } catch (RuntimeException e) {
      super.dropTable(ident);
      throw e;
    }
    return open(ident, registered, Map.of(), true);
  }

  /**
   * A new table on a Hive-catalog session, as Hudi 0.15 creates one there: its files first, then the
   * Hive table {@link HiveTableRegistration} describes (a LOCATION makes it EXTERNAL, else MANAGED
   * under the database's folder).
   */
  private Table createInHiveCatalog(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties, String location) throws NoSuchNamespaceException {
    SparkSession spark = SparkSession.active();
    String database = database(ident);
    String name = tableName(ident.name());
    if (!spark.sessionState().catalog().databaseExists(database)) {
      throw new NoSuchNamespaceException(new String[] {database});
    }
    String base = qualified(location != null ? location
        : spark.sessionState().catalog().defaultTablePath(new TableIdentifier(name, Option.apply(database))).toString());
    io.riverbed.format.table.Table created = TableCreation.create(database, name, schema, partitions, properties, base,
        spark.sessionState().newHadoopConf());
    try {
      HiveTableRegistration.register(spark, database, name, schema, created.config(), properties, base, location != null);
    } catch (RuntimeException e) {
      removeCreated(created, e);
      throw e;
    }
    return open(ident, loadRegistered(ident), Map.of(), true);
  }

  private Table loadRegistered(Identifier ident) {
    try {
      return super.loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new TableException("table " + ident + " was registered in the Hive metastore but cannot be loaded from it", e);
    }
  }

  private static void removeCreated(io.riverbed.format.table.Table created, RuntimeException failure) {
    try {
      created.fs().delete(new org.apache.hadoop.fs.Path(created.basePath(), ".hoodie"), true);
    } catch (java.io.IOException e) {
      failure.addSuppressed(e);
    }
  }

  private static String qualified(String location) {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(location);
    try {
      return path.getFileSystem(SparkSession.active().sessionState().newHadoopConf()).makeQualified(path).toUri().toString();
    } catch (java.io.IOException e) {
      throw new TableException("cannot reach the file system of " + location + ": " + e.getMessage(), e);
    }
  }

  private Table registerExisting(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties, String location) throws TableAlreadyExistsException, NoSuchNamespaceException {
    LoadedTable table;
    try {
      table = HudiDataSource.open(readOptions(properties, Map.of())).inCatalogOrder();
    } catch (TableException e) {
      throw new TableException("CREATE TABLE " + ident + " USING hudi LOCATION '" + location + "': " + e.getMessage(), e);
    }
    StructType schema = table.sparkSchema();
    StructType given = CatalogV2Util.v2ColumnsToStructType(columns);
    if (given.nonEmpty() && !sameColumns(given, schema) && !sameColumns(given, withoutMetaColumns(schema))) {
      throw new TableException("CREATE TABLE " + ident + " USING hudi LOCATION '" + location + "': the schema given, "
          + given.simpleString() + ", is not the table's: " + schema.simpleString() + " (leave the columns out to take the table's)");
    }
    List<String> partitionColumns = table.table().config().partitionFields().stream()
        .filter(f -> schema.getFieldIndex(f).isDefined()).toList();
    List<String> givenPartitions = Arrays.stream(partitions).map(Transform::toString).toList();
    if (partitions.length > 0 && !givenPartitions.equals(partitionColumns.stream().map(c -> "identity(" + c + ")").toList())) {
      throw new TableException("CREATE TABLE " + ident + " USING hudi LOCATION '" + location + "': PARTITIONED BY "
          + givenPartitions + " is not the table's partitioning " + partitionColumns);
    }
    Table registered;
    if (HiveCatalogSession.registersHiveTables(SparkSession.active())) {
      HiveTableRegistration.register(SparkSession.active(), database(ident), tableName(ident.name()), nullable(schema),
          table.table().config(), properties, qualified(location), true);
      registered = loadRegistered(ident);
    } else {
      registered = super.createTable(ident, new Column[0], new Transform[0], properties);
    }
    return new HudiTable(table, new CatalogEntry(ident.toString(), registered.properties(), false, catalogName(ident)));
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return createTable(ident, CatalogV2Util.structTypeToV2Columns(schema), partitions, properties);
  }

  /**
   * Table properties are the catalog's ({@code hoodie.query.as.ro.table} among them; {@code hoodie.*}
   * ones are settings of later SQL writes); column changes are committed to the table
   * ({@link TableAlteration}).
   */
  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    Table catalogTable = super.loadTable(ident);
    if (!isHudi(catalogTable)) {
      return super.alterTable(ident, changes);
    }
    List<TableChange> columnChanges = Arrays.stream(changes).filter(TableAlteration::isColumnChange).toList();
    List<TableChange> others = Arrays.stream(changes).filter(c -> !TableAlteration.isColumnChange(c)).toList();
    for (TableChange change : others) {
      if (!(change instanceof TableChange.SetProperty) && !(change instanceof TableChange.RemoveProperty)) {
        throw new TableException("ALTER TABLE " + ident + ": " + change.getClass().getSimpleName() + " is not supported "
            + "on a hudi table");
      }
    }
    if (!columnChanges.isEmpty()) {
      LoadedTable loaded = ((HudiTable) open(ident, catalogTable, Map.of(), false)).loaded();
      boolean schemaOnRead = Boolean.parseBoolean(SparkSession.active().conf().get(TableAlteration.SCHEMA_ON_READ,
          catalogTable.properties().getOrDefault(TableAlteration.SCHEMA_ON_READ, "false")).trim());
      TableAlteration.alterColumns(ident.toString(), loaded.table(), columnChanges,
          "Spark application " + SparkSession.active().sparkContext().applicationId(), schemaOnRead);
    }
    TableIdentifier v1 = v1Identifier(ident);
    boolean hiveTable = HiveCatalogSession.isHudiHiveTable(SparkSession.active(), v1);
    if (!columnChanges.isEmpty() && hiveTable) {
      HiveTableRegistration.alterDataSchema(SparkSession.active(), v1, columnChanges);
    }
    Table altered = catalogTable;
    if (!others.isEmpty() && hiveTable) {
      HiveTableRegistration.alterProperties(SparkSession.active(), v1, others);
      altered = super.loadTable(ident);
    } else if (!others.isEmpty()) {
      altered = super.alterTable(ident, others.toArray(TableChange[]::new));
    } else if (hiveTable) {
      altered = super.loadTable(ident);
    }
    return open(ident, altered, Map.of(), false);
  }

  /** {@code ALTER TABLE t RENAME TO u}: the catalog entry (and a managed table's folder), then {@code hoodie.table.name}. */
  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent) throws NoSuchTableException, TableAlreadyExistsException {
    TableIdentifier old = v1Identifier(oldIdent);
    if (HiveCatalogSession.isHudiHiveTable(SparkSession.active(), old)) {
      if (super.tableExists(newIdent)) {
        throw new TableAlreadyExistsException(newIdent);
      }
      HiveTableRegistration.rename(SparkSession.active(), old.database().get(), old.table(), tableName(newIdent.name()));
    } else {
      super.renameTable(oldIdent, newIdent);
    }
    Table renamed = super.loadTable(newIdent);
    if (isHudi(renamed)) {
      TableAlteration.rename(((HudiTable) open(newIdent, renamed, Map.of(), false)).loaded().table(),
          tableName(newIdent.name()));
    }
  }

  private static boolean isHudi(Table table) {
    return isHudiProvider(table.properties().get(TableCatalog.PROP_PROVIDER));
  }

  /** Riverbed's table for a catalog table, planned now (every query resolves the table anew). */
  private static Table open(Identifier ident, Table catalogTable, Map<String, String> extra, boolean createdAsSelect) {
    try {
      return new HudiTable(HudiDataSource.open(readOptions(catalogTable.properties(), extra)).inCatalogOrder(),
          new CatalogEntry(ident.toString(), catalogTable.properties(), createdAsSelect,
              catalogName(ident)));
    } catch (TableException e) {
      throw new TableException("table " + ident + ": " + e.getMessage(), e);
    }
  }

  /**
   * The read options a catalog table implies: its location as the path, its storage properties
   * ({@code OPTIONS (...)}, Hive serde properties) as options, and {@code read_optimized} when
   * {@code hoodie.query.as.ro.table=true} is a table or storage property.
   */
  static Map<String, String> readOptions(Map<String, String> tableProperties, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>();
    tableProperties.forEach((k, v) -> {
      if (k.startsWith(TableCatalog.OPTION_PREFIX) && !NOT_READ_OPTIONS.contains(k.substring(TableCatalog.OPTION_PREFIX.length()))) {
        options.put(k.substring(TableCatalog.OPTION_PREFIX.length()), v);
      }
    });
    String location = tableProperties.get(TableCatalog.PROP_LOCATION);
    if (location != null && !location.isBlank()) {
      options.put(ReadOptions.PATH, location);
    }
    String ro = tableProperties.getOrDefault(QUERY_AS_RO_TABLE, tableProperties.get(TableCatalog.OPTION_PREFIX + QUERY_AS_RO_TABLE));
    if ("true".equalsIgnoreCase(ro == null ? null : ro.trim())) {
      options.put(ReadOption.QUERY_TYPE.key(), "read_optimized");
    }
    options.putAll(extra);
    return options;
  }

  private static boolean holdsTable(String location) {
    try {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(location);
      return io.riverbed.format.table.Table.exists(path.getFileSystem(SparkSession.active().sessionState().newHadoopConf()), path);
    } catch (java.io.IOException e) {
      throw new TableException("cannot reach the file system of " + location + ": " + e.getMessage(), e);
    }
  }

  private static TableIdentifier v1Identifier(Identifier ident) {
    return new TableIdentifier(tableName(ident.name()), Option.apply(database(ident)));
  }

  private static Optional<CatalogEntry.CatalogName> catalogName(Identifier ident) {
    return Optional.of(new CatalogEntry.CatalogName(database(ident), tableName(ident.name())));
  }

  private static String database(Identifier ident) {
    return ident.namespace().length > 0 ? tableName(ident.namespace()[ident.namespace().length - 1])
        : SparkSession.active().sessionState().catalog().getCurrentDatabase();
  }

  /** A name as Spark's session catalog stores it: lower case unless the session is case-sensitive. */
  private static String tableName(String name) {
    return SparkSession.active().sessionState().conf().caseSensitiveAnalysis() ? name : name.toLowerCase(Locale.ROOT);
  }

  private static boolean sameColumns(StructType a, StructType b) {
    return org.apache.spark.sql.types.DataType.equalsIgnoreCaseAndNullability(a, b);
  }

  /** The table's columns as Hudi registers an existing table's: each nullable. */
  private static StructType nullable(StructType schema) {
    return new StructType(Arrays.stream(schema.fields()).map(f -> new org.apache.spark.sql.types.StructField(f.name(),
        f.dataType(), true, f.metadata())).toArray(org.apache.spark.sql.types.StructField[]::new));
  }

  private static StructType withoutMetaColumns(StructType schema) {
    return new StructType(Arrays.stream(schema.fields()).filter(f -> !LoadedTable.isMetaColumn(f.name()))
        .toArray(org.apache.spark.sql.types.StructField[]::new));
  }
}
