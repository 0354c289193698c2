package io.riverbed.flink.catalog;

import io.riverbed.flink.sink.FlinkTables;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.source.AvroRowTypes;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.flink.sql.HudiTableFactory;
import io.riverbed.flink.write.RowTypeAvroConverter;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.write.commit.SchemaChangeCommit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The Hudi tables on storage behind a hudi catalog, whichever mode keeps their definitions: a
 * table created from its DDL ({@code hoodie.properties} with the DDL's schema, keys and partitions,
 * as the connector's first write would create it), a table's Flink form rebuilt from its schema on
 * storage and its kept {@link TableDefinition}, and the changes {@code ALTER TABLE} may make.
 */
final class HudiTables {
  private final String catalogName;
  private final Map<String, String> hadoopOptions;

  HudiTables(String catalogName, Map<String, String> hadoopOptions) {
    this.catalogName = catalogName;
    this.hadoopOptions = Map.copyOf(hadoopOptions);
  }

  FileSystem fileSystem(String basePath) {
    return FlinkTables.fileSystem(basePath, hadoopOptions);
  }

  boolean exists(String basePath) {
    return Table.exists(fileSystem(basePath), new Path(basePath));
  }

  /** The options a table's DDL gave, without {@code connector} and {@code path}; a connector other than hudi is refused. */
  Map<String, String> givenOptions(ObjectPath tablePath, Map<String, String> options) {
    Map<String, String> given = new HashMap<>(options);
    String connector = given.remove(FactoryUtil.CONNECTOR.key());
    if (connector != null && !connector.equals(HudiTableFactory.IDENTIFIER)) {
      throw new CatalogException(name(tablePath) + ": the hudi catalog holds 'connector' = 'hudi' tables only, got '"
          + connector + "'");
    }
    given.remove(HudiConnectorOptions.PATH.key());
    return given;
  }

  /** A table of the catalog: views are refused. */
  ResolvedCatalogTable requireTable(ObjectPath tablePath, CatalogBaseTable table) {
    if (!(table instanceof ResolvedCatalogTable resolved)) {
      throw new CatalogException(name(tablePath) + ": the hudi catalog holds tables only, not views");
    }
    return resolved;
  }

  /**
   * Creates the Hudi table of {@code ddl} at {@code basePath} (left as it is if one exists there) and
   * returns the writer options its DDL resolves to (record key, partitions, ordering field, type, name).
   *
   * @throws CatalogException naming the table when the DDL's options are not valid for the connector
   */
  FlinkWriteOptions create(ObjectPath tablePath, ResolvedCatalogTable ddl, Map<String, String> given, String basePath) {
    Map<String, String> withLocation = new HashMap<>(given);
    withLocation.put(FactoryUtil.CONNECTOR.key(), HudiTableFactory.IDENTIFIER);
    withLocation.put(HudiConnectorOptions.PATH.key(), basePath);
    RowType rowType = physicalRowType(ddl);
    Map<String, String> writerOptions;
    try {
      writerOptions = HudiTableFactory.resolveOptions(catalogName + "." + tablePath.getFullName(), tablePath.getObjectName(), ddl.copy(withLocation), rowType);
    } catch (ValidationException e) {
      throw new CatalogException(e.getMessage(), e);
    }
    FlinkWriteOptions options = FlinkWriteOptions.fromMap(writerOptions);
    FlinkTables.openOrCreate(options, RowTypeAvroConverter.toAvroSchema(rowType, options.tableName()));
    return options;
  }

  /** What a catalog keeps of {@code ddl}: {@code given} options, primary key, partitions, comment. */
  static TableDefinition definitionOf(ResolvedCatalogTable ddl, Map<String, String> given) {
    var pk = ddl.getResolvedSchema().getPrimaryKey();
    return new TableDefinition(given, pk.map(k -> k.getColumns()).orElse(List.of()), pk.map(k -> k.getName()).orElse(null),
        ddl.getPartitionKeys(), ddl.getComment());
  }

  /**
   * The Flink table at {@code basePath}: its columns from its schema on storage (primary key columns
   * NOT NULL), the key, partitions, comment and options of {@code definition}, connector and path set.
   */
  CatalogTable catalogTable(ObjectPath tablePath, String basePath, TableDefinition definition) {
    Table table = Table.open(fileSystem(basePath), new Path(basePath));
    Schema avro = TableSchemaResolver.resolve(table, table.refreshTimeline()).orElseThrow(() -> new CatalogException(
        name(tablePath) + " at " + basePath + " has no schema (no commit and no create schema in its hoodie.properties)"));
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
    options.put(HudiConnectorOptions.PATH.key(), basePath);
    return CatalogTable.of(schema.build(), definition.comment(), definition.partitionKeys(), options);
  }

  /**
   * Checks that {@code altered} only changes options and adds columns at the end, and commits the
   * added columns to the table's schema (nullable, as Hudi's {@code ALTER TABLE ADD COLUMNS}).
   *
   * @return the names of the added columns, in order
   * @throws CatalogException naming the table for any other change
   */
  List<String> alter(ObjectPath tablePath, String basePath, CatalogTable current, CatalogBaseTable altered) {
    List<org.apache.flink.table.api.Schema.UnresolvedColumn> before = current.getUnresolvedSchema().getColumns();
    List<org.apache.flink.table.api.Schema.UnresolvedColumn> after = altered.getUnresolvedSchema().getColumns();
    if (!(altered instanceof ResolvedCatalogTable resolved)
        || after.size() < before.size() || !after.subList(0, before.size()).equals(before)
        || !Objects.equals(current.getUnresolvedSchema().getPrimaryKey().map(k -> k.getColumnNames()),
            altered.getUnresolvedSchema().getPrimaryKey().map(k -> k.getColumnNames()))
        || !current.getPartitionKeys().equals(resolved.getPartitionKeys())) {
      throw new CatalogException(name(tablePath) + ": ALTER TABLE changes the table's options (SET/RESET) and adds "
          + "nullable columns at the end (ADD); other changes of its columns, primary key or partitions are not "
          + "available through the catalog");
    }
    List<String> added = after.subList(before.size(), after.size()).stream().map(c -> c.getName()).toList();
    if (!added.isEmpty()) {
      addColumns(tablePath, basePath, resolved, added);
    }
    return added;
  }

  /** Commits the table's schema with {@code added} (nullable, physical) at the end. */
  private void addColumns(ObjectPath tablePath, String basePath, ResolvedCatalogTable altered, List<String> added) {
    String statement = "catalog " + catalogName + ": ALTER TABLE " + tablePath.getFullName() + " ADD ";
    for (String column : added) {
      var resolved = altered.getResolvedSchema().getColumn(column).orElseThrow();
      if (!resolved.isPhysical() || !resolved.getDataType().getLogicalType().isNullable()) {
        throw new CatalogException(statement + column + ": only nullable physical columns can be added (files written "
            + "before have no value for it)");
      }
    }
    Table table = Table.open(fileSystem(basePath), new Path(basePath)).prepareForWrite();
    Schema current = TableSchemas.removeMetaFields(TableSchemaResolver.resolve(table, table.refreshTimeline())
        .orElseThrow(() -> new CatalogException(statement + String.join(", ", added) + ": the table has no schema yet")));
    Schema declared = RowTypeAvroConverter.toAvroSchema(physicalRowType(altered), current.getName());
    List<Schema.Field> fields = new ArrayList<>();
    current.getFields().forEach(f -> fields.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal())));
    for (String column : added) {
      fields.add(new Schema.Field(column, declared.getField(column).schema(), null, JsonProperties.NULL_VALUE));
    }
    Schema changed = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false);
    changed.setFields(fields);
    SchemaChangeCommit.commit(table, changed, "flink-catalog", statement + String.join(", ", added));
  }

  private static RowType physicalRowType(ResolvedCatalogTable table) {
    return (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
  }

  /** {@code catalog <name>: <database>.<table>}, how messages name a table. */
  String name(ObjectPath tablePath) {
    return "catalog " + catalogName + ": " + tablePath.getFullName();
  }
}
