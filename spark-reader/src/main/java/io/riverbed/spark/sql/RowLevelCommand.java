package io.riverbed.spark.sql;

import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.spark.write.BatchWrite;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * The command a row-level statement on a Hudi table becomes: it writes the statement's changes
 * through the same batch write as {@code df.write.format("hudi")} ({@link BatchWrite#writeChanges}),
 * in one instant committed only when every change is written, and drops cached plans of the table.
 * A leaf, as Hudi's own commands are: Spark's optimizer never rewrites the statement's plans.
 */
public final class RowLevelCommand extends LeafCommand {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(RowLevelCommand.class);

  private static final Seq<Attribute> EMPTY_OUTPUT = JavaConverters.asScalaBuffer(java.util.List.<Attribute>of()).toList();

  private final transient RowLevelStatement statement;

  public RowLevelCommand(RowLevelStatement statement) {
    this.statement = statement;
  }

  public RowLevelStatement statement() {
    return statement;
  }

  @Override
  public Seq<Row> run(SparkSession spark) {
    StatementTarget target = statement.target();
    String path = target.table().basePath().toString();
    Map<String, String> options = new HashMap<>(SqlHiveSync.syncOptions(spark, target.entry(), target.table().config(),
        SqlWrite.settings(spark, target.entry())));
    options.put("path", path);
    options.put(BatchWriteOptions.OPERATION, statement.operation());
    String instant = BatchWrite.writeChanges(spark, statement.changes(spark), statement.deleteFlag(), options);
    LOG.info("{} committed instant {} on table {}", statement, instant, target.table().basePath());
    spark.sharedState().cacheManager().uncacheQuery(spark, target.relation(), true, false);
    return JavaConverters.asScalaBuffer(java.util.List.<Row>of()).toList();
  }

  @Override
  public Seq<Attribute> output() {
    return EMPTY_OUTPUT;
  }

  @Override
  protected Object element() {
    return statement;
  }
}
