package io.riverbed.hive.testing;

import io.riverbed.format.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.hadoop.hive.metastore.security.HadoopThriftAuthBridge;

/**
 * A real Hive Metastore 3.1.3 (thrift) in this JVM, backed by embedded Derby in a fresh folder:
 * the recipe of STACK.md. Started once per test class; {@link #uri()} is what clients connect to.
 * {@link #main} runs one in its own JVM for tests whose JVM holds another Hive version (Spark's).
 */
public final class MetastoreServer {
  private final Path dir;
  private final int port;

  private MetastoreServer(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /** Starts a metastore with its Derby database and warehouse under {@code dir}; returns once it accepts connections. */
  public static MetastoreServer start(Path dir) {
    int port = freePort();
    Configuration conf = new Configuration(false);
    String derby = dir.resolve("metastore_db").toAbsolutePath().toString();
    MetastoreConf.setVar(conf, MetastoreConf.ConfVars.CONNECT_URL_KEY, "jdbc:derby:;databaseName=" + derby + ";create=true");
    MetastoreConf.setBoolVar(conf, MetastoreConf.ConfVars.SCHEMA_VERIFICATION, false);
    MetastoreConf.setBoolVar(conf, MetastoreConf.ConfVars.AUTO_CREATE_ALL, true);
    MetastoreConf.setVar(conf, MetastoreConf.ConfVars.EXPRESSION_PROXY_CLASS,
        "org.apache.hadoop.hive.metastore.DefaultPartitionExpressionProxy");
    MetastoreConf.setVar(conf, MetastoreConf.ConfVars.TASK_THREADS_ALWAYS,
        "org.apache.hadoop.hive.metastore.events.EventCleanerTask");
    MetastoreConf.setVar(conf, MetastoreConf.ConfVars.WAREHOUSE, dir.resolve("warehouse").toUri().toString());
    MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, "thrift://127.0.0.1:" + port);
    conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
    System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());
    var failure = new java.util.concurrent.atomic.AtomicReference<Throwable>();
    Thread server = new Thread(() -> {
      try {
        HiveMetaStore.startMetaStore(port, HadoopThriftAuthBridge.getBridge(), conf);
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "hive-metastore-" + port);
    server.setDaemon(true);
    server.start();
    try {
      awaitPort(port, Duration.ofSeconds(90), failure);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return new MetastoreServer(dir, port);
  }

  /** A thrift client of this metastore (Hive 3.1's), for tests to read what a sync registered. */
  public org.apache.hadoop.hive.metastore.HiveMetaStoreClient newClient() throws org.apache.hadoop.hive.metastore.api.MetaException {
    Configuration conf = new Configuration();
    MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, uri());
    return new org.apache.hadoop.hive.metastore.HiveMetaStoreClient(conf);
  }

  public String uri() {
    return "thrift://127.0.0.1:" + port;
  }

  public Path dir() {
    return dir;
  }

  /** A loopback port nothing listens on (for the unreachable-metastore tests, too). */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void awaitPort(int port, Duration timeout, java.util.concurrent.atomic.AtomicReference<Throwable> failure)
      throws InterruptedException {
    Await.await("the Hive Metastore to listen on port " + port, timeout).every(Duration.ofMillis(100))
        .guardedBy(() -> {
          if (failure.get() != null) {
            throw new IllegalStateException("Hive Metastore failed to start", failure.get());
          }
        })
        .until(() -> {
          try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
          } catch (IOException notYet) {
            return false;
          }
        });
  }

  /** Runs a metastore in this JVM: {@code MetastoreServer DIR}; prints {@code METASTORE <uri>} when ready, then serves until killed. */
  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    MetastoreServer server = start(dir);
    System.out.println("METASTORE " + server.uri());
    System.out.flush();
    Thread.currentThread().join();
  }
}
