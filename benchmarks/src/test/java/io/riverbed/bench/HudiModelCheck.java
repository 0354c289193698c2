package io.riverbed.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.row_number;

import java.nio.file.Path;
import java.util.Arrays;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Flink benchmark table read by Apache Hudi 0.15's own Spark reader (snapshot) and compared row by
 * row with the model of its input: per key, the JSON line with the largest {@code ts} (the input's
 * {@code ts} grows by line, so it is the key's last event). Every data column is compared, in the
 * types Hudi reads the table with.
 *
 * @param hudiRows rows Hudi's snapshot read returned
 * @param modelRows keys in the model (rows the table must hold)
 * @param onlyInHudi rows Hudi read that the model does not hold, compared on every data column
 * @param onlyInModel model rows Hudi did not read
 * @param seconds the read and comparison's wall time
 */
record HudiModelCheck(long hudiRows, long modelRows, long onlyInHudi, long onlyInModel, double seconds) {

  boolean agrees() {
    return hudiRows == modelRows && onlyInHudi == 0 && onlyInModel == 0;
  }

  String describe() {
    return String.format(java.util.Locale.ROOT, "%,d rows read by Hudi 0.15's snapshot reader, %,d in the model; %,d "
        + "rows only in Hudi's read and %,d only in the model (every data column compared); %.0f s", hudiRows, modelRows,
        onlyInHudi, onlyInModel, seconds);
  }

  /** Reads {@code table} with Hudi and {@code input} (JSON lines) as the model, in a local session under {@code scratch}. */
  static HudiModelCheck of(Path table, Path input, Path scratch) {
    long start = System.nanoTime();
    try (SparkSession spark = SparkReadRun.session(scratch, "riverbed-bench-hudi-model-check")) {
      Dataset<Row> hudi = SparkReadRun.snapshot(spark, SparkReadRun.HUDI, table);
      StructType data = new StructType(Arrays.stream(hudi.schema().fields())
          .filter(f -> !f.name().startsWith("_hoodie_")).toArray(StructField[]::new));
      Column[] columns = Arrays.stream(data.fieldNames()).map(name -> col(name)).toArray(Column[]::new);
      Dataset<Row> read = hudi.select(columns).cache();
      Dataset<Row> model = spark.read().schema(data).json(input.toString())
          .withColumn("event_rank", row_number().over(Window.partitionBy("uuid").orderBy(col("ts").desc())))
          .filter(col("event_rank").equalTo(1)).select(columns).cache();
      long hudiRows = read.count();
      long modelRows = model.count();
      long onlyInHudi = read.exceptAll(model).count();
      long onlyInModel = model.exceptAll(read).count();
      read.unpersist();
      model.unpersist();
      return new HudiModelCheck(hudiRows, modelRows, onlyInHudi, onlyInModel, (System.nanoTime() - start) / 1e9);
    }
  }
}
