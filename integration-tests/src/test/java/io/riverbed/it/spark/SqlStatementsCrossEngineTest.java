package io.riverbed.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.spark.RiverbedCatalog;
import io.riverbed.spark.RiverbedSessionExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import scala.Option;

/**
 * Riverbed's Spark SQL {@code UPDATE}, {@code DELETE FROM} and {@code MERGE INTO} (its session
 * extension and catalog, in a session of its own beside Hudi's) on a table Riverbed's DataFrame
 * writer created: after each statement Apache Hudi 0.15's reader reads what the model says, and the
 * same rows and {@code _hoodie_*} columns as Riverbed's reader.
 */
class SqlStatementsCrossEngineTest {
  static SparkSession riverbed;
  @TempDir Path dir;

  @BeforeAll
  static void riverbedSession() {
    riverbed = riverbedSqlSession();
  }

  /** A session of the oracle's Spark with Riverbed's session extension and catalog, beside Hudi's. */
  static SparkSession riverbedSqlSession() {
    SparkSessionExtensions extensions = new SparkSessionExtensions();
    new RiverbedSessionExtension().apply(extensions);
    SparkSession session = new SparkSession(SparkOracle.spark().sparkContext(), Option.empty(), Option.empty(),
        extensions, scala.collection.immutable.Map$.MODULE$.empty());
    session.conf().set("spark.sql.catalog.spark_catalog", RiverbedCatalog.class.getName());
    session.conf().set("spark.sql.session.timeZone", "UTC");
    return session;
  }

  private static void checkAgainstHudi(Path path, Map<String, String> model, String statement) {
    Rows hudi = SparkOracle.snapshot(path);
    assertThat(SparkWriterCrossEngineTest.modelOf(hudi)).as(statement + ", read by Hudi").isEqualTo(new TreeMap<>(model));
    SparkOracle.readWith(SparkWriterCrossEngineTest.RIVERBED, path, Query.snapshot())
        .assertSameAs(hudi, statement + ": Riverbed vs Hudi");
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void hudiReadsWhatRiverbedsStatementsLeave(String type) {
    Path path = dir.resolve("sql_" + type.toLowerCase());
    SparkWriterCrossEngineTest.write(SparkWriterCrossEngineTest.RIVERBED, SparkWriterCrossEngineTest.trips(
        new Object[] {"1", "2015-01-01", 1L, 1.0}, new Object[] {"2", "2015-01-01", 1L, 2.0},
        new Object[] {"3", "2015-01-02", 1L, 3.0}), path, SparkWriterCrossEngineTest.options(type), "upsert", "overwrite");
    String table = "trips_" + type.toLowerCase();
    riverbed.sql("CREATE TABLE " + table + " USING " + SparkWriterCrossEngineTest.RIVERBED + " LOCATION '"
        + path.toUri() + "'");
    Map<String, String> model = new TreeMap<>(Map.of(
        "1", "2015-01-01|1|1.0", "2", "2015-01-01|1|2.0", "3", "2015-01-02|1|3.0"));

    riverbed.sql("UPDATE " + table + " SET fare = fare * 10, ts = 2 WHERE creation_date = '2015-01-01'");
    model.putAll(Map.of("1", "2015-01-01|2|10.0", "2", "2015-01-01|2|20.0"));
    checkAgainstHudi(path, model, "UPDATE");

    riverbed.sql("DELETE FROM " + table + " WHERE id = '2'");
    model.remove("2");
    checkAgainstHudi(path, model, "DELETE");

    riverbed.createDataFrame(List.of(
        RowFactory.create("1", "2015-01-01", 3L, 100.0), RowFactory.create("3", "2015-01-02", 3L, 0.0),
        RowFactory.create("4", "2015-01-03", 3L, 4.0)), SparkWriterCrossEngineTest.TRIPS)
        .createOrReplaceTempView("changes_" + table);
    riverbed.sql("MERGE INTO " + table + " t USING changes_" + table + " s ON t.id = s.id"
        + " WHEN MATCHED AND s.fare > 0 THEN UPDATE SET fare = s.fare, ts = s.ts"
        + " WHEN MATCHED THEN DELETE"
        + " WHEN NOT MATCHED THEN INSERT (id, creation_date, ts, fare) VALUES (s.id, s.creation_date, s.ts, s.fare)");
    model.put("1", "2015-01-01|3|100.0");
    model.remove("3");
    model.put("4", "2015-01-03|3|4.0");
    checkAgainstHudi(path, model, "MERGE INTO");
  }

  /**
   * The walkthrough's {@code ALTER TABLE ... CHANGE COLUMN uuid uuid bigint} (and float to double), with
   * {@code hoodie.schema.on.read.enable} as Hudi 0.15 needs it, on a
   * table with rows in the old types, in base files and, on MERGE_ON_READ, in logs: Hudi reads the old
   * rows in the new types as Riverbed does.
   */
  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void hudiReadsTheRowsWrittenBeforeAColumnWasWidened(String type) {
    String table = "widened_" + type;
    Path path = dir.resolve(table);
    riverbed.sql("CREATE TABLE " + table + " (uuid INT, name STRING, price FLOAT, ts BIGINT) USING "
        + SparkWriterCrossEngineTest.RIVERBED + " TBLPROPERTIES (primaryKey = 'uuid', preCombineField = 'ts', type = '"
        + type + "') LOCATION '" + path.toUri() + "'");
    riverbed.sql("INSERT INTO " + table + " VALUES (1, 'a', 1.5, 1), (2, 'b', 2.5, 1), (3, 'c', 3.5, 1)");
    riverbed.sql("UPDATE " + table + " SET price = 20.5, ts = 2 WHERE uuid = 2");
    riverbed.sql("ALTER TABLE " + table + " SET TBLPROPERTIES ('hoodie.schema.on.read.enable' = 'true')");
    riverbed.sql("ALTER TABLE " + table + " CHANGE COLUMN uuid uuid BIGINT");
    riverbed.sql("ALTER TABLE " + table + " CHANGE COLUMN price price DOUBLE");
    riverbed.sql("INSERT INTO " + table + " VALUES (3000000000, 'd', 4.25, 1)");
    riverbed.sql("UPDATE " + table + " SET name = 'cc', ts = 3 WHERE uuid = 3");
    Rows hudi = SparkOracle.snapshot(path);
    assertThat(hudi.size()).isEqualTo(4);
    SparkOracle.readWith(SparkWriterCrossEngineTest.RIVERBED, path, Query.snapshot())
        .assertSameAs(hudi, "after CHANGE COLUMN: Riverbed vs Hudi");
  }
}
