package io.riverbed.spark.sql.procedures;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.ActiveTimeline;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.WriteStat;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code show_commits(table, limit => 10)}: the completed commits, deltacommits and replacecommits
 * (completed compactions among them, as commits), newest first, with what each wrote.
 */
final class ShowCommitsProcedure extends Procedure {
  private static final List<ProcedureParameter> PARAMETERS = List.of(
      ProcedureParameter.required("table", DataTypes.StringType),
      ProcedureParameter.optional("limit", DataTypes.IntegerType, 10));
  private static final StructType OUTPUT = new StructType()
      .add("commit_time", DataTypes.StringType).add("state_transition_time", DataTypes.StringType)
      .add("action", DataTypes.StringType).add("total_bytes_written", DataTypes.LongType)
      .add("total_files_added", DataTypes.LongType).add("total_files_updated", DataTypes.LongType)
      .add("total_partitions_written", DataTypes.LongType).add("total_records_written", DataTypes.LongType)
      .add("total_update_records_written", DataTypes.LongType).add("total_errors", DataTypes.LongType);

  ShowCommitsProcedure() {
    super("show_commits", PARAMETERS, OUTPUT);
  }

  @Override
  List<Row> call(SparkSession spark, ProcedureArguments args) {
    Table table = ProcedureTable.open(spark, args);
    ActiveTimeline active = ActiveTimeline.load(table);
    return active.timeline().commitsTimeline().completed().instants().stream()
        .sorted(Comparator.comparing(Instant::time).reversed())
        .limit(args.integer("limit").orElseThrow())
        .map(i -> row(active, i)).toList();
  }

  private static Row row(ActiveTimeline active, Instant commit) {
    CommitMetadata m = active.commitMetadata(commit);
    List<WriteStat> stats = m.writeStats();
    long added = stats.stream().filter(s -> WriteStat.NULL_COMMIT.equalsIgnoreCase(s.prevCommit())).count();
    long updated = stats.stream().filter(s -> s.prevCommit() != null
        && !WriteStat.NULL_COMMIT.equalsIgnoreCase(s.prevCommit())).count();
    String transition = active.stateTransitionMillis(commit).map(ms -> InstantTime.format(
        LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(ms), ZoneId.systemDefault()))).orElse(null);
    return RowFactory.create(commit.time(), transition, commit.action().word(),
        stats.stream().mapToLong(WriteStat::totalWriteBytes).sum(), added, updated,
        (long) m.partitionToWriteStats().size(), stats.stream().mapToLong(WriteStat::numWrites).sum(),
        stats.stream().mapToLong(WriteStat::numUpdateWrites).sum(),
        stats.stream().mapToLong(WriteStat::totalWriteErrors).sum());
  }
}
