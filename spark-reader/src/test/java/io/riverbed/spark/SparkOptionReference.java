package io.riverbed.spark;

import io.riverbed.format.docs.OptionsPage;
import io.riverbed.format.table.SqlTableProperties;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.format.write.batch.SqlInsertOperation;

/**
 * The {@code spark-reader} section of {@code docs/OPTIONS.md}: the DataSource's read options
 * ({@link ReadOption}), the session settings it follows ({@link SessionSetting}) and the command
 * line of {@code riverbed-read} ({@link ReadMain#USAGE}) and the DataFrame write options
 * ({@link BatchWriteOptions}).
 * In this package because the usage text is package-private.
 */
public final class SparkOptionReference {
  public static final String SECTION = "spark-reader";

  private SparkOptionReference() {}

  public static String render() {
    return "## Spark read options (`spark-reader`, `ReadOption`)\n\n"
        + "`spark.read.format(\"hudi\").option(key, value)` (or `format(\"riverbed\")`, or the class name\n"
        + "`io.riverbed.spark.HudiDataSource` when Apache Hudi's bundle is on the classpath too). Hudi's names; a value\n"
        + "outside the accepted ones is an error that lists them.\n\n"
        + ReadOption.markdownTable()
        + "\n### Spark session settings the reader follows (`SessionSetting`)\n\n"
        + "Set on the session (`spark.conf.set`, `--conf`), not as read options; Spark's own Parquet file source\n"
        + "follows the same ones, so a scan of base files is split into tasks as `spark.read.parquet` would split it.\n\n"
        + SessionSetting.markdownTable()
        + "\n### Spark write options (`BatchWriteOptions`)\n\n"
        + "`df.write.format(\"hudi\").option(key, value).mode(m).save(path)`. Besides these, a write reads the core\n"
        + "options (`WriteOptions`, `BaseFileOptions`, `KeyGeneratorOptions`, above); any other `hoodie.*` option is\n"
        + "refused by name. Save modes: `Overwrite` replaces the table, `Append` writes or creates it, `ErrorIfExists`\n"
        + "fails on an existing table, `Ignore` leaves it alone.\n\n"
        + OptionsPage.optionTable(BatchWriteOptions.DESCRIPTIONS)
        + "\n### Spark SQL table properties (`SqlTableProperties`)\n\n"
        + "`CREATE TABLE t (...) USING hudi TBLPROPERTIES (key = value)` through `RiverbedCatalog`: Hudi's SQL names\n"
        + "(or the write option names given with each). Other `hoodie.*` properties stay in the catalog and are\n"
        + "options of every later `INSERT INTO` the table.\n\n"
        + OptionsPage.optionTable(SqlTableProperties.DESCRIPTIONS)
        + "\n### Spark SQL `INSERT INTO` settings (`SqlInsertOperation`)\n\n"
        + "Read from the session (`SET key = value`) and the table's properties (which win).\n\n"
        + OptionsPage.optionTable(SqlInsertOperation.DESCRIPTIONS)
        + "\n### `riverbed-read` (`io.riverbed.spark.ReadMain`)\n\n"
        + OptionsPage.codeBlock(ReadMain.USAGE);
  }
}
