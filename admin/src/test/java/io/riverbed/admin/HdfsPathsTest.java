package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.HdfsCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table on HDFS (a MiniDFSCluster in this JVM), named by a path without the name node: the
 * command finds the cluster through {@code fs.defaultFS} in {@code HADOOP_CONF_DIR}'s
 * {@code core-site.xml}, or through {@code --conf}.
 */
class HdfsPathsTest {
  @TempDir static Path dir;
  static HdfsCluster hdfs;
  static OrdersTable table;
  static String nameNode;

  @BeforeAll
  static void start() throws Exception {
    hdfs = HdfsCluster.start(dir.resolve("hdfs"));
    Configuration conf = new Configuration();
    hdfs.clientSettings().forEach(conf::set);
    table = OrdersTable.create(hdfs.uri("lake/orders"), TableType.MERGE_ON_READ, conf);
    table.bulkInsert(1);
    table.upsertRound(2);
    nameNode = hdfs.uri("");
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void hadoopConfDirNamesTheDefaultFileSystem() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    StringBuilder site = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    site.append(property("fs.defaultFS", nameNode));
    hdfs.clientSettings().forEach((k, v) -> site.append(property(k, v)));
    Files.writeString(conf.resolve("core-site.xml"), site.append("</configuration>\n"));

    AdminRun run = AdminRun.run(Map.of("HADOOP_CONF_DIR", conf.toString()), "commits", "/lake/orders", "--json");

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.json().size()).isEqualTo(2);
    assertThat(run.json().get(1).get("operation").asText()).isEqualTo("UPSERT");
  }

  @Test
  void confSetsItOnTheCommandLine() {
    AdminRun run = AdminRun.run("file-slices", "hdfs:///lake/orders", "--json", "--conf", "fs.defaultFS=" + nameNode);

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.json().size()).isEqualTo(2);
    assertThat(run.json().get(0).get("logFiles").asInt()).isEqualTo(1);
  }

  private static String property(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }
}
