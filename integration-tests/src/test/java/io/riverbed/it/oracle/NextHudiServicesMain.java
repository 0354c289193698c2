package io.riverbed.it.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.client.common.HoodieSparkEngineContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Entry point of the forked JVM in which Hudi 1.0.x's write client runs table services on tables
 * (the JVM of {@link NextHudiOracle}). Arguments: {@code <output dir> (<action>|<table path>|<table
 * name>|<instant>)...} with action {@code savepoint} ({@code SparkRDDWriteClient.savepoint}) or
 * {@code restore} ({@code restoreToSavepoint}); the client runs without the embedded timeline server
 * and with the metadata table off (the tables Riverbed writes have none). Writes {@code hudi.txt};
 * exits non-zero on the first failure.
 */
public final class NextHudiServicesMain {

  private NextHudiServicesMain() {
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    Files.createDirectories(out);
    Files.writeString(out.resolve("hudi.txt"), NextHudiReaderMain.hudiOrigin(), StandardCharsets.UTF_8);
    SparkSession spark = LocalSpark.create("riverbed-oracle-next-services");
    try {
      var context = new HoodieSparkEngineContext(JavaSparkContext.fromSparkContext(spark.sparkContext()));
      for (int i = 1; i < args.length; i++) {
        String[] step = args[i].split("\\|", -1);
        HoodieWriteConfig config = HoodieWriteConfig.newBuilder()
            .withPath(Path.of(step[1]).toUri().toString())
            .forTable(step[2])
            .withEmbeddedTimelineServerEnabled(false)
            .withMetadataConfig(HoodieMetadataConfig.newBuilder().enable(false).build())
            .build();
        try (var client = new SparkRDDWriteClient<>(context, config)) {
          switch (step[0]) {
            case "savepoint" -> client.savepoint(step[3], "hudi", "oracle");
            case "restore" -> client.restoreToSavepoint(step[3]);
            default -> throw new IllegalArgumentException("unknown action " + step[0] + " in " + args[i]);
          }
        }
      }
    } finally {
      spark.stop();
    }
  }
}
