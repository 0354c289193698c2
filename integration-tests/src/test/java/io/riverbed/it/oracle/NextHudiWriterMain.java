package io.riverbed.it.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Entry point of the forked JVM in which Hudi 1.x writes a table with its Spark datasource, so tests
 * get tables in the layout Hudi 1.x writes by default (table version 8). Arguments:
 * {@code <output dir> <table path> <table name> <table type> <schema DDL> <step>...}; each step is
 * {@code <operation>|<JSON lines file>[|key=value;key=value...]} and becomes one
 * {@code df.write.format(hudi)} with the record key {@code id}, the ordering field {@code ts} and
 * the partition field {@code part}, Hudi's defaults for everything else. Writes {@code hudi.txt} (where
 * Hudi came from) into the output dir; exits non-zero on the first failure.
 */
public final class NextHudiWriterMain {

  private NextHudiWriterMain() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 6) {
      throw new IllegalArgumentException(
          "usage: <output dir> <table path> <table name> <table type> <schema DDL> <step>...");
    }
    Path out = Path.of(args[0]);
    Files.createDirectories(out);
    Files.writeString(out.resolve("hudi.txt"), NextHudiReaderMain.hudiOrigin(), StandardCharsets.UTF_8);
    String table = Path.of(args[1]).toUri().toString();
    SparkSession spark = LocalSpark.create("riverbed-oracle-next-writer");
    try {
      for (int i = 5; i < args.length; i++) {
        String[] step = args[i].split("\\|", -1);
        if (step.length < 2) {
          throw new IllegalArgumentException("step " + args[i] + " is not <operation>|<file>[|options]");
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("hoodie.table.name", args[2]);
        options.put("hoodie.datasource.write.table.type", args[3]);
        options.put("hoodie.datasource.write.operation", step[0]);
        options.put("hoodie.datasource.write.recordkey.field", "id");
        options.put("hoodie.datasource.write.precombine.field", "ts");
        options.put("hoodie.datasource.write.partitionpath.field", "part");
        if (step.length > 2 && !step[2].isEmpty()) {
          for (String kv : step[2].split(";")) {
            int eq = kv.indexOf('=');
            options.put(kv.substring(0, eq), kv.substring(eq + 1));
          }
        }
        Dataset<Row> rows = spark.read().schema(args[4]).json(step[1]);
        rows.write().format(SparkOracle.HUDI_SOURCE).options(options).mode(SaveMode.Append).save(table);
      }
    } finally {
      spark.stop();
    }
  }
}
