package io.riverbed.format.testing;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A one-datanode MiniDFSCluster on loopback with ephemeral ports, its storage under the folder it is
 * given. Modules using it add {@code hadoop-client-minicluster} to their own test dependencies.
 */
public final class HdfsCluster implements AutoCloseable {
  /**
   * Client settings for quick small files: a closing file polls the name node until its last block
   * is reported, first after 400 ms by default; a few ms suit a datanode in the same JVM.
   */
  public static final java.util.Map<String, String> CLIENT_SETTINGS = java.util.Map.of(
      "dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "10",
      "dfs.client.block.write.locateFollowingBlock.retries", "12");

  private final MiniDFSCluster cluster;

  private HdfsCluster(MiniDFSCluster cluster) {
    this.cluster = cluster;
  }

  /** Starts the cluster (name node and one datanode in this JVM) and waits until it is active. */
  public static HdfsCluster start(Path dir) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.setBoolean("dfs.permissions.enabled", false);
    // Small, quick test files: no minimum block size checks, no replication beyond one datanode.
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 0);
    conf.setInt("dfs.replication", 1);
    CLIENT_SETTINGS.forEach(conf::set);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
    cluster.waitActive();
    return new HdfsCluster(cluster);
  }

  /** {@code hdfs://127.0.0.1:<port>/<path>}. */
  public String uri(String path) {
    return "hdfs://127.0.0.1:" + cluster.getNameNodePort() + "/" + path;
  }

  /** What a client needs beyond defaults: only {@link #CLIENT_SETTINGS}, the URIs carry the name node. */
  public java.util.Map<String, String> clientSettings() {
    return CLIENT_SETTINGS;
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}
