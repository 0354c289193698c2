package io.riverbed.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.riverbed.format.record.MetaFields;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/**
 * The tables Apache Hudi 0.15 wrote (shared-format's test resources, from its test jar) copied to
 * a local folder, the rows Hudi's reader returned for them, and DataFrames turned into the same
 * canonical JSON lines.
 */
final class GoldenTables {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path ROOT = Path.of(System.getProperty("java.io.tmpdir"), "golden-" + ProcessHandle.current().pid());

  private GoldenTables() {}

  /** The local base path of a golden table (copied once per JVM). */
  static synchronized String path(String table) {
    Path dir = ROOT.resolve(table);
    if (!Files.exists(dir)) {
      copyResourceTree("/hudi-0.15/" + table, dir);
    }
    return dir.toUri().toString().replaceAll("/$", "");
  }

  /** A private copy of a golden table that a test may change, at a new local path. */
  static synchronized String freshCopy(String table, String copyName) {
    Path dir = ROOT.resolve(copyName);
    if (Files.exists(dir)) {
      throw new IllegalStateException(dir + " exists");
    }
    copyResourceTree("/hudi-0.15/" + table, dir);
    return dir.toUri().toString().replaceAll("/$", "");
  }

  static List<String> expected(String table, String file) {
    try (InputStream in = GoldenTables.class.getResourceAsStream("/hudi-0.15/expected/" + table + "/" + file)) {
      if (in == null) {
        throw new IllegalStateException("no expected rows " + table + "/" + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank())
          .map(GoldenTables::canonical).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Rows as canonical JSON lines: meta columns in Hudi's order, then the others by name; nulls kept. */
  static List<String> lines(Dataset<Row> df) {
    Map<String, String> options = Map.of(
        "timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX",
        "dateFormat", "yyyy-MM-dd",
        "ignoreNullFields", "false");
    List<String> json = df.select(functions.to_json(functions.struct(Arrays.stream(df.columns()).map(functions::col)
        .toArray(org.apache.spark.sql.Column[]::new)), options).as("j")).as(org.apache.spark.sql.Encoders.STRING()).collectAsList();
    return json.stream().map(GoldenTables::canonical).sorted().toList();
  }

  static String canonical(String line) {
    try {
      JsonNode node = JSON.readTree(line);
      ObjectNode out = JSON.createObjectNode();
      for (String meta : MetaFields.ALL) {
        if (node.has(meta)) {
          out.set(meta, node.get(meta));
        }
      }
      List<String> names = new ArrayList<>();
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String n = it.next();
        if (!MetaFields.ALL.contains(n)) {
          names.add(n);
        }
      }
      names.stream().sorted().forEach(n -> out.set(n, node.get(n)));
      return JSON.writeValueAsString(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copyResourceTree(String resource, Path target) {
    URL url = GoldenTables.class.getResource(resource + "/.hoodie/hoodie.properties");
    if (url == null) {
      throw new IllegalStateException("no golden table " + resource + " on the test classpath");
    }
    try {
      URI uri = url.toURI();
      if (uri.getScheme().equals("jar")) {
        try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
          copyTree(jar.getPath(resource), target);
        }
      } else {
        copyTree(Path.of(uri).getParent().getParent(), target);
      }
    } catch (IOException | java.net.URISyntaxException e) {
      throw new IllegalStateException("cannot copy golden table " + resource, e);
    }
  }

  private static void copyTree(Path source, Path target) throws IOException {
    try (Stream<Path> all = Files.walk(source)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path to = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.createDirectories(to.getParent());
          Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
