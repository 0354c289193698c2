package io.riverbed.flink.kafka;

import io.riverbed.format.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A real single-node Kafka KRaft broker (3.9) in a child JVM, for tests: its jars are copied to
 * {@code kafka-broker-libs/target/libs} by the reactor, so none of them (Scala, kafka-clients 3.9)
 * lands on the test classpath. Ports are free loopback ports chosen at start.
 */
public final class KafkaBroker implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final Process process;
  private final String bootstrapServers;
  private final Path log;

  private KafkaBroker(Process process, String bootstrapServers, Path log) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
    this.log = log;
  }

  /** Starts a broker with its data and logs under {@code workDir}; returns once it serves requests. */
  public static KafkaBroker start(Path workDir) throws IOException, InterruptedException {
    Path libs = Path.of("..", "kafka-broker-libs", "target", "libs").toAbsolutePath().normalize();
    if (!Files.isDirectory(libs)) {
      throw new IllegalStateException(libs + " is missing: build through the reactor "
          + "(mvn -pl flink-writer -am verify) so kafka-broker-libs copies the broker's jars");
    }
    int brokerPort = freePort();
    int controllerPort = freePort();
    Files.createDirectories(workDir);
    Path config = workDir.resolve("server.properties");
    Files.writeString(config, String.join("\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
        "controller.listener.names=CONTROLLER",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + workDir.resolve("data").toAbsolutePath(),
        "num.partitions=1",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "auto.create.topics.enable=false",
        ""), StandardCharsets.UTF_8);
    Path log4j = workDir.resolve("log4j.properties");
    Path log = workDir.resolve("broker.log");
    Files.writeString(log4j, String.join("\n",
        "log4j.rootLogger=INFO, out",
        "log4j.appender.out=org.apache.log4j.ConsoleAppender",
        "log4j.appender.out.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n",
        ""), StandardCharsets.UTF_8);

    List<String> jvm = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + Files.createDirectories(workDir.resolve("tmp")),
        "-Dlog4j.configuration=" + log4j.toUri(),
        "-cp", libs + "/*"));
    String clusterId;
    do {
      // Kafka's own cluster ids never start with '-' either: the storage tool would read it as a flag
      byte[] id = new byte[16];
      long bits = UUID.randomUUID().getMostSignificantBits();
      for (int i = 0; i < 8; i++) {
        id[i] = (byte) (bits >>> (8 * i));
      }
      clusterId = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    } while (clusterId.startsWith("-"));
    List<String> format = new ArrayList<>(jvm);
    format.addAll(List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config.toString()));
    Process formatting = new ProcessBuilder(format).redirectErrorStream(true)
        .redirectOutput(workDir.resolve("format.log").toFile()).start();
    if (!formatting.waitFor(60, TimeUnit.SECONDS) || formatting.exitValue() != 0) {
      formatting.destroyForcibly();
      throw new IllegalStateException("formatting the Kafka storage failed: " + Files.readString(workDir.resolve("format.log")));
    }

    List<String> server = new ArrayList<>(jvm);
    server.addAll(List.of("kafka.Kafka", config.toString()));
    Process process = new ProcessBuilder(server).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    KafkaBroker broker = new KafkaBroker(process, "127.0.0.1:" + brokerPort, log);
    try {
      broker.awaitReady();
    } catch (RuntimeException | IOException e) {
      broker.close();
      throw e;
    }
    return broker;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** Waits until the broker answers a metadata request (or fails with its log). */
  private void awaitReady() throws IOException {
    try (Admin admin = admin()) {
      Await.await("the Kafka broker to answer", START_TIMEOUT).every(Duration.ofMillis(100))
          .guardedBy(Await.alive(process, "Kafka broker", this::tail))
          .explainedBy(this::tail)
          .until(() -> {
            try {
              return !admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty();
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException notYet) {
              return false;
            }
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for Kafka", e);
    }
  }

  private String tail() throws IOException {
    List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  public Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
  }

  public void createTopic(String topic, int partitions) {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create topic " + topic, e);
    }
  }

  /** Sends the values (null key: round-robin... by the sticky partitioner) and waits for acks. */
  public void send(String topic, Integer partition, List<String> values) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (String v : values) {
        producer.send(new ProducerRecord<>(topic, partition, null, v)).get(30, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot send to topic " + topic, e);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
