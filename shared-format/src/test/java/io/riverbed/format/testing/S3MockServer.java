package io.riverbed.format.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Adobe S3Mock's executable jar in a child JVM on free loopback ports, with one bucket, and the
 * s3a settings that reach it. Everything it stores stays under the folder it is given.
 */
public final class S3MockServer implements AutoCloseable {
  public static final String BUCKET = "lake";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final Process process;
  private final int httpPort;
  private final Path dir;

  private S3MockServer(Process process, int httpPort, Path dir) {
    this.process = process;
    this.httpPort = httpPort;
    this.dir = dir;
  }

  /** Starts S3Mock ({@code riverbed.s3mock.jar}) with its store, temp files and log under {@code dir}; waits until it answers. */
  public static S3MockServer start(Path dir) throws IOException, InterruptedException {
    String jar = System.getProperty("riverbed.s3mock.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException("S3Mock's executable jar not found: system property riverbed.s3mock.jar=" + jar);
    }
    Files.createDirectories(dir.resolve("store"));
    Files.createDirectories(dir.resolve("tmp"));
    int httpPort = freePort();
    int httpsPort = freePort();
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + dir.resolve("tmp"),
        "-jar", jar,
        "--com.adobe.testing.s3mock.httpPort=" + httpPort,
        "--server.port=" + httpsPort,
        "--server.address=127.0.0.1",
        "--com.adobe.testing.s3mock.store.root=" + dir.resolve("store"),
        "--com.adobe.testing.s3mock.store.initialBuckets=" + BUCKET,
        "--com.adobe.testing.s3mock.store.retainFilesOnExit=true"));
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("s3mock.log").toFile())
        .start();
    S3MockServer server = new S3MockServer(process, httpPort, dir);
    try {
      server.awaitReady();
    } catch (IOException | InterruptedException | RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  private void awaitReady() throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint() + "/")).timeout(Duration.ofSeconds(5)).GET().build();
    Await.await("S3Mock to answer on " + endpoint(), START_TIMEOUT).every(Duration.ofMillis(200))
        .guardedBy(Await.alive(process, "S3Mock", this::log))
        .explainedBy(this::log)
        .until(() -> {
          try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains(BUCKET);
          } catch (IOException notYet) {
            return false;
          }
        });
  }

  public String endpoint() {
    return "http://127.0.0.1:" + httpPort;
  }

  /** {@code s3a://lake/<path>}. */
  public String uri(String path) {
    return "s3a://" + BUCKET + "/" + path;
  }

  /** The s3a settings for this server (path-style, plain HTTP, static keys), with s3a's buffer folder under the server's folder. */
  public Map<String, String> s3aSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("fs.s3a.endpoint", endpoint());
    s.put("fs.s3a.endpoint.region", "us-east-1");
    s.put("fs.s3a.path.style.access", "true");
    s.put("fs.s3a.connection.ssl.enabled", "false");
    s.put("fs.s3a.access.key", "riverbed");
    s.put("fs.s3a.secret.key", "riverbed-secret");
    s.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    s.put("fs.s3a.buffer.dir", dir.resolve("s3a-buffer").toString());
    // Keep directory markers: fewer LIST/DELETE round trips after every file a writer creates.
    s.put("fs.s3a.directory.marker.retention", "keep");
    s.put("fs.s3a.attempts.maximum", "3");
    s.put("fs.s3a.retry.limit", "3");
    return s;
  }

  public Configuration hadoopConf() {
    Configuration conf = new Configuration();
    s3aSettings().forEach(conf::set);
    return conf;
  }

  private String log() {
    try {
      String text = Files.readString(dir.resolve("s3mock.log"));
      return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
