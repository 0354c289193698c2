package io.riverbed.flink.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;

/**
 * How the {@code hms} mode reaches its Hive Metastore, found as Hudi's catalog finds it: the
 * {@code hive-site.xml} in {@code hive.conf.dir} (else one on the classpath), then the catalog's
 * {@code hadoop.*} options (prefix dropped, so {@code 'hadoop.hive.metastore.uris'} names the
 * metastore without a conf folder). An embedded metastore (no thrift URIs) is refused, as Hudi does.
 *
 * @param uris the metastore's thrift URIs, comma separated
 * @param conf the Hive and Hadoop settings the metastore client reads
 */
record MetastoreSettings(String uris, Configuration conf) {
  static final String HIVE_SITE = "hive-site.xml";

  /**
   * The settings of catalog {@code catalog}.
   *
   * @param hiveConfDir the folder of {@code hive-site.xml} (any Hadoop file system), or null
   * @param hadoopOptions the catalog's {@code hadoop.*} options
   * @throws ValidationException naming the catalog when {@code hive-site.xml} cannot be read or no URIs are set
   */
  static MetastoreSettings resolve(String catalog, String hiveConfDir, Map<String, String> hadoopOptions) {
    Configuration conf = new Configuration();
    if (hiveConfDir != null) {
      Path hiveSite = new Path(hiveConfDir, HIVE_SITE);
      try {
        FileSystem fs = hiveSite.getFileSystem(new Configuration());
        try (InputStream in = fs.open(hiveSite)) {
          conf.addResource(in, hiveSite.toString());
          conf.size(); // reads the stream before it closes
        }
      } catch (IOException | RuntimeException e) {
        throw new ValidationException("Catalog " + catalog + ": cannot read " + hiveSite + " ('hive.conf.dir'): "
            + e.getMessage(), e);
      }
    } else {
      URL onClasspath = Thread.currentThread().getContextClassLoader().getResource(HIVE_SITE);
      if (onClasspath != null) {
        conf.addResource(onClasspath);
      }
    }
    hadoopOptions.forEach((key, value) -> {
      if (key.startsWith("hadoop.")) {
        conf.set(key.substring("hadoop.".length()), value);
      }
    });
    String uris = MetastoreConf.getVar(conf, MetastoreConf.ConfVars.THRIFT_URIS);
    if (uris == null || uris.isBlank()) {
      throw new ValidationException("Catalog " + catalog + ": mode 'hms' needs the metastore's thrift URIs: "
          + "'hive.metastore.uris' in the hive-site.xml of 'hive.conf.dir', or the option 'hadoop.hive.metastore.uris' "
          + "(an embedded metastore is not allowed)");
    }
    return new MetastoreSettings(uris.trim(), conf);
  }
}
