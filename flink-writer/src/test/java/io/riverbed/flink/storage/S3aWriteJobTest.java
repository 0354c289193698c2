package io.riverbed.flink.storage;

import io.riverbed.format.testing.S3MockServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Flink writer with table and checkpoints on {@code s3a://} (S3Mock in a child JVM). The writer
 * reaches s3a through hadoop-aws; Flink's checkpoint storage does too, through Flink's Hadoop
 * fallback file system, which Flink allows for {@code s3a} only when listed in
 * {@code fs.allowed-fallback-filesystems} (the {@code flink-s3-fs-hadoop} plugin of this Flink
 * version, 1.20.3, is not served by the registry these builds use).
 */
class S3aWriteJobTest extends StoreWriteJobContract {
  private S3MockServer s3;

  @Override
  void startStore(Path dir) throws Exception {
    s3 = S3MockServer.start(dir.resolve("s3mock"));
  }

  @Override
  void stopStore() throws InterruptedException {
    if (s3 != null) {
      s3.close();
    }
  }

  @Override
  String uri(String path) {
    return s3.uri(path);
  }

  @Override
  Map<String, String> hadoopSettings() {
    return s3.s3aSettings();
  }

  @Override
  Map<String, String> flinkSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("fs.allowed-fallback-filesystems", "s3a");
    s3.s3aSettings().forEach((k, v) -> s.put("flink.hadoop." + k, v));
    return s;
  }
}
