package io.riverbed.it.riverbed;

import io.riverbed.it.oracle.SparkOracle;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.client.common.HoodieSparkEngineContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.spark.api.java.JavaSparkContext;

/** Apache Hudi 0.15's meta client and write client on a local table, as the cross-engine tests drive them. */
final class HudiClients {
  private HudiClients() {}

  /** Hudi's view of the table's timeline, loaded afresh. */
  static HoodieTableMetaClient metaClient(Path path) {
    return HoodieTableMetaClient.builder().setConf(HadoopFSUtils.getStorageConf(new Configuration()))
        .setBasePath(path.toUri().toString()).build();
  }

  /** A write config for the table: no embedded timeline server, metadata table off; table services added by the caller. */
  static HoodieWriteConfig.Builder writeConfig(Path path, String tableName) {
    return HoodieWriteConfig.newBuilder()
        .withPath(path.toUri().toString())
        .forTable(tableName)
        .withEmbeddedTimelineServerEnabled(false)
        .withMetadataConfig(HoodieMetadataConfig.newBuilder().enable(false).build());
  }

  /** A write client in the oracle's Spark session; close it after use. */
  static SparkRDDWriteClient<?> writeClient(HoodieWriteConfig config) {
    var jsc = JavaSparkContext.fromSparkContext(SparkOracle.spark().sparkContext());
    return new SparkRDDWriteClient<>(new HoodieSparkEngineContext(jsc), config);
  }
}
