package io.riverbed.spark.sql;

import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.collection.JavaConverters;

/**
 * The Hudi table a row-level statement changes: the core's table (its keys, partitioning and
 * precombine field) and the analyzed relation the statement reads it through.
 *
 * @param name the table as the statement names it, for messages
 * @param entry the table's catalog entry: its settings and the names Hive sync registers
 */
public record StatementTarget(Table table, LogicalPlan relation, String name, CatalogEntry entry) {

  /** The relation's columns that hold data: every column but Hudi's meta columns. */
  public List<Attribute> dataColumns() {
    return JavaConverters.seqAsJavaList(relation.output()).stream().filter(a -> !isMetaColumn(a.name())).toList();
  }

  /**
   * The columns a statement's changes carry: the data columns, and for a table whose keys were
   * generated ({@link #generatesKeys}) also {@code _hoodie_record_key}, the stored key each change
   * updates or deletes, as Hudi 0.15's prepped SQL writes use it.
   */
  public List<Attribute> changedColumns() {
    List<Attribute> columns = new java.util.ArrayList<>(dataColumns());
    if (generatesKeys()) {
      columns.add(recordKeyMetaColumn());
    }
    return columns;
  }

  /** Whether the table has no record key fields: its keys were generated on insert. */
  public boolean generatesKeys() {
    return table.config().recordKeyFields().isEmpty();
  }

  public Attribute column(String field) {
    return JavaConverters.seqAsJavaList(relation.output()).stream().filter(a -> a.name().equalsIgnoreCase(field))
        .findFirst().orElseThrow(() -> new RefusedStatementException(name + ": the table has no column '" + field
            + "' (a key, partition or precombine field of its hoodie.properties)"));
  }

  public boolean isRecordKeyField(String column) {
    return contains(table.config().recordKeyFields(), column);
  }

  public boolean isPartitionField(String column) {
    return contains(table.config().partitionFields(), column);
  }

  public Optional<String> precombineField() {
    return table.config().precombineField().filter(f -> !f.isBlank());
  }

  public boolean isMergeOnRead() {
    return table.config().type() == TableType.MERGE_ON_READ;
  }

  public Attribute recordKeyMetaColumn() {
    return column(MetaFields.RECORD_KEY);
  }

  static boolean isMetaColumn(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return MetaFields.ALL.contains(lower) || MetaFields.OPERATION.equals(lower);
  }

  private static boolean contains(List<String> fields, String column) {
    return fields.stream().anyMatch(f -> f.equalsIgnoreCase(column));
  }
}
