package io.riverbed.admin;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.TableException;
import io.riverbed.format.file.NioLocalFileSystem;
import io.riverbed.format.table.Table;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The Hadoop configuration a command opens its table with: Hadoop's defaults and the
 * {@code core-site.xml} on the classpath, then {@code core-site.xml} and {@code hdfs-site.xml} of
 * {@code HADOOP_CONF_DIR}, then every {@code --conf KEY=VALUE}, in that order.
 */
final class HadoopSettings {
  static final String CONF_DIR_VARIABLE = "HADOOP_CONF_DIR";
  static final List<String> SITE_FILES = List.of("core-site.xml", "hdfs-site.xml");

  private HadoopSettings() {}

  /**
   * Builds the configuration.
   *
   * @throws ParameterException for a {@code --conf} entry that is not KEY=VALUE or names a table
   *     service option ({@code hoodie.*}, {@code riverbed.*}: those go to {@code --option})
   * @throws TableException if {@code HADOOP_CONF_DIR} is set but is not a folder
   */
  static Configuration configuration(CommandLine command, Map<String, String> env, List<String> confEntries) {
    Map<String, String> settings = KeyValues.parse(command, "--conf", confEntries);
    for (String key : settings.keySet()) {
      String lower = key.toLowerCase(Locale.ROOT);
      if (lower.startsWith("hoodie.") || lower.startsWith("riverbed.")) {
        throw new ParameterException(command, "--conf takes Hadoop settings; " + key
            + " is a table service option: pass it as --option " + key + "=...");
      }
    }
    Configuration conf = new Configuration();
    String dir = env.get(CONF_DIR_VARIABLE);
    if (dir != null && !dir.isBlank()) {
      Path folder = Path.of(dir);
      if (!Files.isDirectory(folder)) {
        throw new TableException(CONF_DIR_VARIABLE + "=" + dir + " is not a folder");
      }
      for (String name : SITE_FILES) {
        Path site = folder.resolve(name);
        if (Files.isRegularFile(site)) {
          conf.addResource(new org.apache.hadoop.fs.Path(site.toAbsolutePath().toUri()));
        }
      }
    }
    settings.forEach(conf::set);
    return conf;
  }

  /**
   * Opens the table at {@code path} with {@code conf}.
   *
   * @throws InvalidTableException if the path holds no Hudi table (version 6)
   * @throws TableException if the path's file system cannot be reached
   */
  static Table openTable(String path, Configuration conf) {
    org.apache.hadoop.fs.Path base = withDefaultAuthority(new org.apache.hadoop.fs.Path(path), conf);
    FileSystem fs;
    try {
      fs = NioLocalFileSystem.of(base, conf);
    } catch (IOException e) {
      throw new TableException("cannot reach the file system of " + path + ": " + e.getMessage(), e);
    }
    return Table.open(fs, base);
  }

  /**
   * {@code hdfs:///lake/t} with the name node of {@code fs.defaultFS} when that is an hdfs:// URI too,
   * as Hadoop's own path check resolves it (done here, so it holds whatever configuration a cached
   * file system instance was made with).
   */
  private static org.apache.hadoop.fs.Path withDefaultAuthority(org.apache.hadoop.fs.Path path, Configuration conf) {
    URI uri = path.toUri();
    URI defaultUri = FileSystem.getDefaultUri(conf);
    if (uri.getScheme() == null || uri.getAuthority() != null || defaultUri.getAuthority() == null
        || !uri.getScheme().equalsIgnoreCase(defaultUri.getScheme())) {
      return path;
    }
    return new org.apache.hadoop.fs.Path(defaultUri.getScheme(), defaultUri.getAuthority(), uri.getPath());
  }
}
