package io.riverbed.spark.sql.procedures;

import io.riverbed.format.TableException;
import io.riverbed.format.savepoint.Savepoint;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code create_savepoint(table | path, commit_time, user => '', comments => '')}: savepoints a
 * completed commit with the core's {@link Savepoint}. As Hudi, an unknown commit is an error and a
 * savepoint the core refuses (older than the last clean retained, savepointed already) is a
 * {@code false} result, its reason logged.
 */
final class CreateSavepointProcedure extends Procedure {
  private static final Logger LOG = LoggerFactory.getLogger(CreateSavepointProcedure.class);
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.optional("table", DataTypes.StringType),
      ProcedureParameter.optional("commit_time", DataTypes.StringType, ""),
      ProcedureParameter.optional("user", DataTypes.StringType, ""),
      ProcedureParameter.optional("comments", DataTypes.StringType, ""),
      ProcedureParameter.optional("path", DataTypes.StringType));
  private static final StructType OUTPUT = new StructType().add("create_savepoint_result", DataTypes.BooleanType);

  CreateSavepointProcedure() {
    super("create_savepoint", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Table table = ProcedureTable.open(spark, args);
    String commit = args.string("commit_time").orElseThrow();
    Timeline completed = table.refreshTimeline().commitsTimeline().completed();
    if (!completed.containsTime(commit)) {
      throw new TableException("CALL create_savepoint: commit " + commit + " not found in the completed commits of "
          + "table " + table.basePath() + " " + completed.times());
    }
    boolean created = ProcedureTable.underLease(spark, table, name(), t -> {
      try {
        Savepoint.of(t, commit).user(args.string("user").orElseThrow()).comments(args.string("comments").orElseThrow())
            .execute();
        return true;
      } catch (TableException e) {
        LOG.warn("Could not create savepoint {} of table {}: {}", commit, t.basePath(), e.getMessage());
        return false;
      }
    });
    return List.of(RowFactory.create(created));
  }
}
