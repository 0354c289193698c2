package io.riverbed.hive.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Hive Metastore per test class ({@code @RegisterExtension static}): started before the
 * class's tests in a fresh folder under {@code java.io.tmpdir}, with a client to read what tests
 * registered, closed after them.
 */
public final class MetastoreExtension implements BeforeAllCallback, AfterAllCallback {
  private MetastoreServer server;
  private HiveMetaStoreClient client;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "hms-");
    server = MetastoreServer.start(dir);
    client = server.newClient();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (client != null) {
      client.close();
    }
  }

  /** The metastore's thrift URI. */
  public String uri() {
    return server.uri();
  }

  /** A client of the metastore (Hive 3.1's), for assertions. */
  public HiveMetaStoreClient client() {
    return client;
  }
}
