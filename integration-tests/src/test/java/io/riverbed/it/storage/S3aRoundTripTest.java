package io.riverbed.it.storage;

import io.riverbed.format.testing.S3MockServer;
import java.nio.file.Path;
import java.util.Map;

/** The round trip on {@code s3a://}, against Adobe S3Mock in a child JVM. */
class S3aRoundTripTest extends StoreRoundTripContract {
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
}
