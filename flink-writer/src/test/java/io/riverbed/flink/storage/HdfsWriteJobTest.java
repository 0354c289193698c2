package io.riverbed.flink.storage;

import io.riverbed.format.testing.HdfsCluster;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The Flink writer with table and checkpoints on {@code hdfs://} (MiniDFSCluster in this JVM; Flink reaches HDFS through its Hadoop file system). */
class HdfsWriteJobTest extends StoreWriteJobContract {
  private HdfsCluster hdfs;

  @Override
  void startStore(Path dir) throws Exception {
    hdfs = HdfsCluster.start(dir.resolve("hdfs"));
  }

  @Override
  void stopStore() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Override
  String uri(String path) {
    return hdfs.uri(path);
  }

  @Override
  Map<String, String> hadoopSettings() {
    return hdfs.clientSettings();
  }

  @Override
  Map<String, String> flinkSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    hdfs.clientSettings().forEach((k, v) -> s.put("flink.hadoop." + k, v));
    return s;
  }
}
