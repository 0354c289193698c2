package io.riverbed.spark.sql;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.record.SchemaEvolution;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableProperty;
import io.riverbed.format.table.TableSchemaResolver;
import io.riverbed.format.write.commit.SchemaChangeCommit;
import io.riverbed.spark.write.SparkAvroSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * {@code ALTER TABLE} on a Hudi table as Apache Hudi 0.15 does it without schema-on-read: new
 * nullable columns at the end ({@code ADD COLUMNS}) and, with {@value #SCHEMA_ON_READ} (without it
 * Hudi 0.15 refuses type changes), wider column types ({@code CHANGE COLUMN c c bigint} on an int
 * column: Avro's promotions, {@link SchemaEvolution#promotes}) are committed to the table as an
 * {@code alter_schema} commit (a {@code commit}, or {@code deltacommit} on MERGE_ON_READ) with no
 * files and the new schema in its metadata, so every reader sees them; a rename sets
 * {@code hoodie.table.name}.
 */
public final class TableAlteration {
  /** Hudi's switch for type changes in {@code ALTER TABLE} (its schema-on-read); a session setting or table property. */
  public static final String SCHEMA_ON_READ = "hoodie.schema.on.read.enable";
  private TableAlteration() {}

  /** Whether Riverbed changes a table's schema for this change (the others are the catalog's, or refused). */
  public static boolean isColumnChange(TableChange change) {
    return change instanceof TableChange.ColumnChange;
  }

  /**
   * Commits the schema {@code changes} make to the table's current one.
   *
   * @throws InvalidTableException naming the table and column of a change Riverbed does not make
   */
  public static void alterColumns(String tableName, Table table, List<TableChange> changes, String holder,
      boolean schemaOnRead) {
    String statement = "ALTER TABLE " + tableName;
    changes.forEach(change -> requireSupported(statement, change));
    Table prepared = table.prepareForWrite();
    Schema current = TableSchemas.removeMetaFields(TableSchemaResolver.resolve(prepared, prepared.refreshTimeline())
        .orElseThrow(() -> new InvalidTableException(statement + ": the table has no schema yet")));
    List<Schema.Field> fields = new ArrayList<>();
    current.getFields().forEach(f -> fields.add(copy(f, f.schema())));
    for (TableChange change : changes) {
      if (change instanceof TableChange.UpdateColumnType update) {
        if (!schemaOnRead) {
          throw new InvalidTableException(statement + " CHANGE COLUMN " + String.join(".", update.fieldNames()) + " "
              + update.newDataType().sql() + ": changing a column's type needs " + SCHEMA_ON_READ + "=true, as in Hudi "
              + "0.15 (Riverbed then widens it: int to bigint, float or double; bigint to float or double; float to double)");
        }
        widen(statement, fields, update, current);
        continue;
      }
      TableChange.AddColumn add = (TableChange.AddColumn) change;
      String name = single(statement, add.fieldNames());
      if (fields.stream().anyMatch(f -> f.name().equalsIgnoreCase(name))) {
        throw new InvalidTableException(statement + " ADD COLUMNS: column " + name + " exists already");
      }
      if (add.position() != null || !add.isNullable()) {
        throw new InvalidTableException(statement + " ADD COLUMNS (" + name + "): only nullable columns at the end "
            + "can be added (FIRST, AFTER and NOT NULL need Hudi's schema-on-read, which Riverbed does not support)");
      }
      Schema.Field added = avroField(name, add.dataType(), current);
      fields.add(new Schema.Field(name, added.schema(), add.comment(), JsonProperties.NULL_VALUE));
    }
    Schema changed = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false);
    changed.setFields(fields);
    SchemaChangeCommit.commit(prepared, changed, "spark-sql", holder);
  }

  private static void requireSupported(String statement, TableChange change) {
    if (!(change instanceof TableChange.AddColumn) && !(change instanceof TableChange.UpdateColumnType)) {
      throw new InvalidTableException(statement + ": " + describe(change) + " is not supported (Hudi needs "
          + "schema-on-read for it, which Riverbed does not support); ADD COLUMNS and widening a column's type are");
    }
  }

  /** Replaces the field {@code update} names by its wider type, which readers apply to the files written before. */
  private static void widen(String statement, List<Schema.Field> fields, TableChange.UpdateColumnType update,
      Schema current) {
    String name = single(statement, update.fieldNames());
    String clause = statement + " ALTER COLUMN " + name + " TYPE " + update.newDataType().sql();
    int index = -1;
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equalsIgnoreCase(name)) {
        index = i;
      }
    }
    if (index < 0) {
      throw new InvalidTableException(clause + ": the table has no column " + name);
    }
    Schema.Field field = fields.get(index);
    Schema type = avroField(field.name(), update.newDataType(), current).schema();
    if (SchemaEvolution.sameType(field.schema(), type)) {
      return;
    }
    if (!SchemaEvolution.promotes(field.schema(), type)) {
      throw new InvalidTableException(clause + ": a column's type can only be widened (int to bigint, float or double; "
          + "bigint to float or double; float to double), as the files written before are read in the new type");
    }
    fields.set(index, copy(field, SchemaEvolution.widened(field.schema(), SchemaEvolution.nonNull(type))));
  }

  /** {@code ALTER TABLE t RENAME TO u}: the table's own name follows the catalog's. */
  public static void rename(Table table, String newName) {
    table.updateConfig(Map.of(TableProperty.NAME.key(), newName));
  }

  private static Schema.Field avroField(String name, DataType type, Schema current) {
    return SparkAvroSchema.toAvro(new StructType().add(name, type, true), current.getName(), current.getNamespace())
        .getField(name);
  }

  private static Schema.Field copy(Schema.Field f, Schema schema) {
    return new Schema.Field(f.name(), schema, f.doc(), f.defaultVal());
  }

  private static String single(String statement, String[] names) {
    if (names.length != 1) {
      throw new InvalidTableException(statement + ": nested column " + String.join(".", names) + " cannot be changed; "
          + "only top-level columns can");
    }
    return names[0];
  }

  private static String describe(TableChange change) {
    if (change instanceof TableChange.ColumnChange column) {
      return change.getClass().getSimpleName() + " of column " + String.join(".", column.fieldNames());
    }
    return change.getClass().getSimpleName();
  }
}
