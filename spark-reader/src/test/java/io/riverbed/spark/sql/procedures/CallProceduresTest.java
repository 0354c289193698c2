package io.riverbed.spark.sql.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.write.WriterLease;
import io.riverbed.spark.RiverbedCatalog;
import io.riverbed.spark.SparkTestSession;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hudi 0.15's {@code CALL} procedures through {@code RiverbedSessionExtension} and {@link RiverbedCatalog}:
 * each procedure's output columns are Hudi's, its rows say what it did, and bad calls are refused
 * naming the procedure or argument.
 */
class CallProceduresTest {
  static final String DB = "riverbed_call_test";
  static final AtomicInteger TABLES = new AtomicInteger();
  static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = SparkTestSession.withCatalogDatabase(DB);
  }

  @AfterAll
  static void dropDatabase() {
    spark.sql("DROP DATABASE " + DB + " CASCADE");
  }

  /** A table with one row per insert (ids 1..inserts), each insert its own commit. */
  static Fixture table(String type, int inserts) throws Exception {
    String name = "t" + TABLES.incrementAndGet();
    String location = Files.createTempDirectory("call").resolve(name).toUri().toString();
    spark.sql("CREATE TABLE " + name + " (id INT, name STRING, ts BIGINT) USING hudi TBLPROPERTIES (primaryKey = 'id', "
        + "preCombineField = 'ts', type = '" + type + "') LOCATION '" + location + "'");
    for (int i = 1; i <= inserts; i++) {
      spark.sql("INSERT INTO " + name + " VALUES (" + i + ", 'n" + i + "', " + i + ")");
    }
    return new Fixture(name, location);
  }

  record Fixture(String name, String location) {
    Table table() throws Exception {
      Path path = new Path(location);
      return Table.open(path.getFileSystem(new Configuration()), path);
    }

    List<String> commits() throws Exception {
      return table().refreshTimeline().commitsTimeline().completed().times();
    }

    List<String> rows() {
      return spark.sql("SELECT id, name FROM " + name + " ORDER BY id").collectAsList().stream().map(Row::toString)
          .toList();
    }
  }

  static StructType schema(String sql) {
    return spark.sql(sql).schema();
  }

  @Test
  void showCommitsListsCompletedCommitsNewestFirstInHudiColumns() throws Exception {
    Fixture t = table("cow", 3);
    Dataset<Row> shown = spark.sql("CALL show_commits(table => '" + t.name() + "', limit => 2)");

    assertThat(shown.schema()).isEqualTo(new StructType().add("commit_time", DataTypes.StringType)
        .add("state_transition_time", DataTypes.StringType).add("action", DataTypes.StringType)
        .add("total_bytes_written", DataTypes.LongType).add("total_files_added", DataTypes.LongType)
        .add("total_files_updated", DataTypes.LongType).add("total_partitions_written", DataTypes.LongType)
        .add("total_records_written", DataTypes.LongType).add("total_update_records_written", DataTypes.LongType)
        .add("total_errors", DataTypes.LongType));
    List<Row> rows = shown.collectAsList();
    List<String> commits = t.commits();
    assertThat(rows).extracting(r -> r.getString(0))
        .containsExactly(commits.get(commits.size() - 1), commits.get(commits.size() - 2));
    Row newest = rows.get(0);
    assertThat(newest.getString(2)).isEqualTo("commit");
    assertThat(newest.getString(1)).hasSize(17);
    assertThat(newest.getLong(3)).isPositive();
    assertThat(newest.getLong(5)).isEqualTo(1L);
    assertThat(newest.getLong(7)).isEqualTo(3L);
    assertThat(newest.getLong(9)).isZero();
    assertThat(spark.sql("CALL show_commits('" + t.name() + "')").count()).isEqualTo(commits.size());
  }

  @Test
  void namesAreCaseInsensitiveAndMayBeQualifiedBySystem() throws Exception {
    Fixture t = table("cow", 1);

    assertThat(spark.sql("call System.Show_Commits(TABLE => '" + t.name() + "');").count()).isEqualTo(1);
  }

  @Test
  void rollbackToInstantRollsBackTheLatestCommitAndRefusesAnOlderOne() throws Exception {
    Fixture t = table("cow", 3);
    List<String> commits = t.commits();
    String latest = commits.get(commits.size() - 1);

    assertThatThrownBy(() -> spark.sql("CALL rollback_to_instant(table => '" + t.name() + "', instant_time => '"
        + commits.get(0) + "')").collect())
        .hasMessageContaining("completed commits come after it");
    Dataset<Row> done = spark.sql("CALL rollback_to_instant(table => '" + t.name() + "', instant_time => '" + latest + "')");

    assertThat(done.schema()).isEqualTo(new StructType().add("rollback_result", DataTypes.BooleanType));
    assertThat(done.collectAsList()).extracting(r -> r.getBoolean(0)).containsExactly(true);
    assertThat(t.commits()).doesNotContain(latest);
    spark.catalog().refreshTable(t.name());
    assertThat(t.rows()).containsExactly("[1,n1]", "[2,n2]");
    assertThatThrownBy(() -> spark.sql("CALL rollback_to_instant(table => '" + t.name() + "', instant_time => '"
        + latest + "')").collect())
        .hasMessageContaining("commit " + latest + " not found in the completed commits");
  }

  @Test
  void runCompactionSchedulesThenExecutesAndShowCompactionFollows() throws Exception {
    Fixture t = table("mor", 2);
    spark.sql("UPDATE " + t.name() + " SET name = 'u' WHERE id = 1");

    List<Row> scheduled = spark.sql("CALL run_compaction(op => 'schedule', table => '" + t.name() + "')").collectAsList();
    assertThat(scheduled).hasSize(1);
    String compaction = scheduled.get(0).getString(0);
    assertThat(scheduled.get(0).getInt(1)).isEqualTo(1);
    assertThat(scheduled.get(0).getString(2)).isEqualTo("REQUESTED");
    Dataset<Row> shown = spark.sql("CALL show_compaction(table => '" + t.name() + "')");
    assertThat(shown.schema()).isEqualTo(new StructType().add("timestamp", DataTypes.StringType)
        .add("operation_size", DataTypes.IntegerType).add("state", DataTypes.StringType));
    assertThat(shown.collectAsList()).extracting(Row::toString).containsExactly("[" + compaction + ",1,REQUESTED]");

    List<Row> executed = spark.sql("CALL run_compaction(op => 'execute', path => '" + t.location() + "')")
        .collectAsList();

    assertThat(executed).extracting(Row::toString).containsExactly("[" + compaction + ",1,COMPLETED]");
    assertThat(spark.sql("CALL show_compaction('" + t.name() + "')").collectAsList()).extracting(Row::toString)
        .containsExactly("[" + compaction + ",1,COMPLETED]");
    spark.catalog().refreshTable(t.name());
    assertThat(t.rows()).containsExactly("[1,u]", "[2,n2]");
    assertThatThrownBy(() -> spark.sql("CALL run_compaction(op => 'execute', table => '" + t.name()
        + "', instants => '20000101000000000')").collect())
        .hasMessageContaining("no pending compaction 20000101000000000");
    assertThatThrownBy(() -> spark.sql("CALL run_compaction(op => 'compact', table => '" + t.name() + "')").collect())
        .hasMessageContaining("unknown op 'compact'");
  }

  @Test
  void showCompactionRefusesACopyOnWriteTable() throws Exception {
    Fixture t = table("cow", 1);

    assertThatThrownBy(() -> spark.sql("CALL show_compaction(table => '" + t.name() + "')").collect())
        .hasMessageContaining("cannot show compaction on a non Merge On Read table");
  }

  @Test
  void runCleanDeletesOldFileSlicesAndReportsTheClean() throws Exception {
    Fixture t = table("cow", 1);
    for (int i = 0; i < 3; i++) {
      spark.sql("INSERT INTO " + t.name() + " VALUES (1, 'v" + i + "', " + (10 + i) + ")");
    }

    Dataset<Row> cleaned = spark.sql("CALL run_clean(table => '" + t.name() + "', retain_commits => 1)");

    assertThat(cleaned.schema()).isEqualTo(new StructType().add("start_clean_time", DataTypes.StringType)
        .add("time_taken_in_millis", DataTypes.LongType).add("total_files_deleted", DataTypes.IntegerType)
        .add("earliest_commit_to_retain", DataTypes.StringType).add("bootstrap_part_metadata", DataTypes.StringType)
        .add("version", DataTypes.IntegerType));
    List<Row> rows = cleaned.collectAsList();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getString(0)).isEqualTo(t.table().refreshTimeline().ofAction(Action.CLEAN).last()
        .orElseThrow().time());
    assertThat(rows.get(0).getInt(2)).isPositive();
    assertThat(rows.get(0).getString(4)).isEqualTo("{}");
    assertThat(rows.get(0).getInt(5)).isEqualTo(2);
    assertThat(spark.sql("CALL run_clean(table => '" + t.name() + "', retain_commits => 1)").count()).isZero();
    spark.catalog().refreshTable(t.name());
    assertThat(t.rows()).containsExactly("[1,v2]");
  }

  @Test
  void savepointsAreCreatedShownRestoredAndDeleted() throws Exception {
    Fixture t = table("cow", 1);
    String first = t.commits().get(0);

    assertThat(spark.sql("CALL create_savepoint(table => '" + t.name() + "', commit_time => '" + first
        + "', user => 'ops', comments => 'before backfill')").collectAsList()).extracting(r -> r.getBoolean(0))
        .containsExactly(true);
    spark.sql("INSERT INTO " + t.name() + " VALUES (2, 'n2', 2)");
    Dataset<Row> shown = spark.sql("CALL show_savepoints(table => '" + t.name() + "')");
    assertThat(shown.schema()).isEqualTo(new StructType().add("savepoint_time", DataTypes.StringType));
    assertThat(shown.collectAsList()).extracting(r -> r.getString(0)).containsExactly(first);

    assertThat(spark.sql("CALL rollback_to_savepoint(table => '" + t.name() + "', instant_time => '" + first + "')")
        .collectAsList()).extracting(Row::toString).containsExactly("[true]");
    spark.catalog().refreshTable(t.name());
    assertThat(t.rows()).containsExactly("[1,n1]");

    assertThat(spark.sql("CALL delete_savepoint(table => '" + t.name() + "')").collectAsList())
        .extracting(Row::toString).containsExactly("[true]");
    assertThat(spark.sql("CALL show_savepoints('" + t.name() + "')").count()).isZero();
    assertThatThrownBy(() -> spark.sql("CALL delete_savepoint(table => '" + t.name() + "')").collect())
        .hasMessageContaining("has no completed savepoint");
    assertThatThrownBy(() -> spark.sql("CALL create_savepoint(table => '" + t.name()
        + "', commit_time => '20000101000000000')").collect())
        .hasMessageContaining("commit 20000101000000000 not found in the completed commits");
  }

  @Test
  void writingProceduresRefuseWhileAnotherWriterHoldsTheLease() throws Exception {
    Fixture t = table("cow", 2);
    WriterLease flink = WriterLease.acquire(t.table(), "flink-writer", "Flink job 42", Duration.ofMinutes(10));
    try {
      assertThatThrownBy(() -> spark.sql("CALL run_clean(table => '" + t.name() + "')").collect())
          .isInstanceOf(CommitConflictException.class).hasMessageContaining("Flink job 42");
    } finally {
      flink.release();
    }
    assertThat(spark.sql("CALL run_clean(table => '" + t.name() + "')").count()).isZero();
  }

  @Test
  void unknownProceduresAndArgumentsAreNamedWithWhatExists() throws Exception {
    Fixture t = table("cow", 1);

    assertThatThrownBy(() -> spark.sql("CALL show_commitz(table => '" + t.name() + "')"))
        .hasMessageContaining("CALL show_commitz: no such procedure; the procedures are create_savepoint, "
            + "delete_savepoint, rollback_to_instant, rollback_to_savepoint, run_clean, run_compaction, "
            + "show_commits, show_compaction, show_savepoints");
    assertThatThrownBy(() -> spark.sql("CALL show_commits(table => '" + t.name() + "', limt => 3)"))
        .hasMessageContaining("CALL show_commits: unknown argument limt; its parameters are table string "
            + "(required), limit int");
    assertThatThrownBy(() -> spark.sql("CALL show_commits(limit => 3)"))
        .hasMessageContaining("CALL show_commits: missing required argument table");
    assertThatThrownBy(() -> spark.sql("CALL show_commits('" + t.name() + "', limit => 3)"))
        .hasMessageContaining("named and positional arguments cannot be mixed");
    assertThatThrownBy(() -> spark.sql("CALL show_commits(table => '" + t.name() + "', limit => 'many')"))
        .hasMessageContaining("argument limit must be of type int, given many");
    assertThatThrownBy(() -> spark.sql("CALL show_commits(table => 'no_such_table')").collect())
        .hasMessageContaining("table no_such_table does not exist");
  }

  @Test
  void argumentsSplitOnlyAtTopLevelCommas() {
    assertThat(CallParser.splitArguments("p", "a => 'x,y', b => (1, 2), 'it''s'"))
        .containsExactly("a => 'x,y'", " b => (1, 2)", " 'it''s'");
  }
}
