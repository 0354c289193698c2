package io.riverbed.it.storage;

import io.riverbed.format.testing.HdfsCluster;
import java.nio.file.Path;
import java.util.Map;

/** The round trip on {@code hdfs://}, against a MiniDFSCluster in this JVM. */
class HdfsRoundTripTest extends StoreRoundTripContract {
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
}
