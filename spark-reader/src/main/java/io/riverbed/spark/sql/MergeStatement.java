package io.riverbed.spark.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.DeleteAction;
import org.apache.spark.sql.catalyst.plans.logical.InsertAction;
import org.apache.spark.sql.catalyst.plans.logical.MergeAction;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.UpdateAction;
import org.apache.spark.sql.functions;
import scala.Option;
import scala.collection.JavaConverters;

/**
 * {@code MERGE INTO t USING s ON ... WHEN MATCHED [AND c] THEN UPDATE SET ... | DELETE
 * WHEN NOT MATCHED [AND c] THEN INSERT ...}, with the semantics of Hudi 0.15's
 * {@code MergeIntoHoodieTableCommand} and its {@code ExpressionPayload}: the ON clause matches by
 * record key ({@link MergeCondition}); a matched source row takes the first UPDATE clause whose
 * condition holds, else the DELETE clause if its condition holds, else leaves the row alone; a
 * source row with no match takes the first INSERT clause whose condition holds. Several source
 * rows of one key are precombined by the precombine field, and the table's payload class decides
 * against the stored row, as for any upsert. Everything is one instant of operation {@code upsert}.
 *
 * <p>An UPDATE clause assigns the columns it names and keeps the others' stored values; one that
 * does not assign the precombine field takes the source's column of that name. A matched row keeps
 * its record key and partition: an assignment that changes either fails the statement, naming the
 * key. An INSERT clause must assign the record key and precombine fields; columns it leaves out are null.
 */
public final class MergeStatement implements RowLevelStatement {
  static final String DELETE_FLAG = "_riverbed_merge_delete";
  private static final String MATCHED = "_riverbed_merge_matched";
  private static final String CLAUSE = "_riverbed_merge_clause";

  private final StatementTarget target;
  private final MergeIntoTable merge;

  public MergeStatement(StatementTarget target, MergeIntoTable merge) {
    this.target = target;
    this.merge = merge;
  }

  @Override
  public StatementTarget target() {
    return target;
  }

  @Override
  public String deleteFlag() {
    return DELETE_FLAG;
  }

  @Override
  public Dataset<Row> changes(SparkSession spark) {
    String statement = toString();
    if (!merge.notMatchedBySourceActions().isEmpty()) {
      throw new RefusedStatementException(statement + ": WHEN NOT MATCHED BY SOURCE is not supported on a Hudi table");
    }
    MergeCondition.check(target, merge, statement);
    List<Assignments> updates = new ArrayList<>();
    List<Option<Expression>> updateConditions = new ArrayList<>();
    List<Option<Expression>> deleteConditions = new ArrayList<>();
    for (MergeAction action : JavaConverters.seqAsJavaList(merge.matchedActions())) {
      if (action instanceof UpdateAction update) {
        updates.add(updateAssignments(update, statement));
        updateConditions.add(update.condition());
      } else if (action instanceof DeleteAction delete) {
        deleteConditions.add(delete.condition());
      } else {
        throw new RefusedStatementException(statement + ": unsupported WHEN MATCHED action " + action.sql());
      }
    }
    if (deleteConditions.size() > 1) {
      throw new RefusedStatementException(statement + ": only one deleting action is supported in MERGE INTO statement "
          + "(provided " + deleteConditions.size() + ")");
    }
    List<Assignments> inserts = new ArrayList<>();
    List<Option<Expression>> insertConditions = new ArrayList<>();
    for (MergeAction action : JavaConverters.seqAsJavaList(merge.notMatchedActions())) {
      if (!(action instanceof InsertAction insert)) {
        throw new RefusedStatementException(statement + ": unsupported WHEN NOT MATCHED action " + action.sql());
      }
      inserts.add(insertAssignments(insert, statement));
      insertConditions.add(insert.condition());
    }

    Dataset<Row> targetRows = Dataset.ofRows(spark, merge.targetTable()).withColumn(MATCHED, functions.lit(true));
    Column matched = targetRows.col(MATCHED).isNotNull();
    Dataset<Row> joined = Dataset.ofRows(spark, merge.sourceTable())
        .join(targetRows, new Column(merge.mergeCondition()), "left_outer");

    Column clause = null;
    int deleteClause = updates.size();
    int firstInsert = deleteClause + 1;
    for (int i = 0; i < updates.size(); i++) {
      clause = when(clause, matched.and(condition(updateConditions.get(i))), i);
    }
    if (!deleteConditions.isEmpty()) {
      clause = when(clause, matched.and(condition(deleteConditions.get(0))), deleteClause);
    }
    for (int i = 0; i < inserts.size(); i++) {
      clause = when(clause, functions.not(matched).and(condition(insertConditions.get(i))), firstInsert + i);
    }
    Dataset<Row> picked = joined.withColumn(CLAUSE, clause).filter(functions.col(CLAUSE).isNotNull());
    Column chosen = functions.col(CLAUSE);

    List<Column> columns = new ArrayList<>();
    for (Attribute column : target.dataColumns()) {
      Column stored = new Column(column);
      Column value = functions.when(chosen.equalTo(deleteClause), stored);
      for (int i = 0; i < updates.size(); i++) {
        value = value.when(chosen.equalTo(i), updatedValue(updates.get(i), column, statement));
      }
      for (int i = 0; i < inserts.size(); i++) {
        value = value.when(chosen.equalTo(firstInsert + i), inserts.get(i).valueOf(column, Assignments.nullOf(column)));
      }
      columns.add(value.cast(column.dataType()).as(column.name()));
    }
    columns.add(chosen.equalTo(deleteClause).as(DELETE_FLAG));
    return picked.select(columns.toArray(Column[]::new));
  }

  /** The value an UPDATE clause writes to {@code column}; a key or partition field may only keep its stored value. */
  private Column updatedValue(Assignments set, Attribute column, String statement) {
    Column stored = new Column(column);
    Optional<Expression> assigned = set.of(column.name());
    if (assigned.isEmpty()) {
      return stored;
    }
    Column value = new Column(assigned.get()).cast(column.dataType());
    if (!target.isRecordKeyField(column.name()) && !target.isPartitionField(column.name())) {
      return value;
    }
    String field = (target.isRecordKeyField(column.name()) ? "record key" : "partition") + " field '" + column.name() + "'";
    Column message = functions.concat(functions.lit(statement + ": a WHEN MATCHED UPDATE changes the " + field
        + " of the row with record key '"), new Column(target.recordKeyMetaColumn()), functions.lit("'; a matched row "
        + "keeps its key and partition"));
    return functions.when(value.eqNullSafe(stored), stored).otherwise(functions.raise_error(message));
  }

  private Assignments updateAssignments(UpdateAction update, String statement) {
    Assignments set = Assignments.of(update.assignments(), statement);
    if (target.isMergeOnRead()) {
      List<String> targetColumns = JavaConverters.seqAsJavaList(update.assignments()).stream()
          .flatMap(a -> JavaConverters.seqAsJavaList(a.value().references().toSeq()).stream())
          .filter(r -> merge.targetTable().outputSet().contains(r)).map(Attribute::name).distinct().toList();
      if (!targetColumns.isEmpty()) {
        throw new RefusedStatementException(statement + ": Target table's field(" + String.join(",", targetColumns)
            + ") cannot be the right-value of the update clause for MOR table.");
      }
    }
    Optional<String> precombine = target.precombineField();
    if (precombine.isPresent() && set.of(precombine.get()).isEmpty()) {
      Attribute source = sourceColumn(precombine.get()).orElseThrow(() -> new RefusedStatementException(statement
          + ": failed to resolve precombine field `" + precombine.get() + "` w/in the source-table output; assign it in "
          + "the UPDATE clause"));
      set = set.orAssign(precombine.get(), source);
    }
    return set;
  }

  private Assignments insertAssignments(InsertAction insert, String statement) {
    Assignments set = Assignments.of(insert.assignments(), statement);
    List<String> required = new ArrayList<>(target.table().config().recordKeyFields());
    target.precombineField().ifPresent(required::add);
    for (String field : required) {
      if (set.of(field).isEmpty()) {
        throw new RefusedStatementException(statement + ": the INSERT clause must assign the "
            + (target.isRecordKeyField(field) ? "record key" : "precombine") + " field '" + field + "'");
      }
    }
    return set;
  }

  private Optional<Attribute> sourceColumn(String name) {
    return JavaConverters.seqAsJavaList(merge.sourceTable().output()).stream()
        .filter(a -> a.name().equalsIgnoreCase(name)).findFirst();
  }

  private static Column condition(Option<Expression> condition) {
    return condition.isDefined() ? new Column(condition.get()) : functions.lit(true);
  }

  private static Column when(Column chain, Column condition, int clause) {
    return chain == null ? functions.when(condition, functions.lit(clause)) : chain.when(condition, functions.lit(clause));
  }

  @Override
  public String toString() {
    return "MERGE INTO " + target.name();
  }
}
