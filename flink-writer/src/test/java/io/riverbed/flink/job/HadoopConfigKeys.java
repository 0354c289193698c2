package io.riverbed.flink.job;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * The Hadoop configuration keys a recipe's core-site.xml / hdfs-site.xml may set: those of
 * Hadoop's core-default.xml and hdfs-default.xml, and the key constants of the s3a connector
 * ({@code org.apache.hadoop.fs.s3a.Constants}) and the HDFS client
 * ({@code HdfsClientConfigKeys}), as the Hadoop 3.3 jars of this class path define them.
 */
final class HadoopConfigKeys {
  private static final List<String> CONSTANT_CLASSES = List.of(
      "org.apache.hadoop.fs.s3a.Constants", "org.apache.hadoop.hdfs.client.HdfsClientConfigKeys");

  private final Set<String> keys;

  private HadoopConfigKeys(Set<String> keys) {
    this.keys = keys;
  }

  static HadoopConfigKeys load() {
    Set<String> keys = new HashSet<>();
    for (String resource : List.of("core-default.xml", "hdfs-default.xml")) {
      try (InputStream in = HadoopConfigKeys.class.getClassLoader().getResourceAsStream(resource)) {
        if (in != null) {
          keys.addAll(propertyNames(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    for (String name : CONSTANT_CLASSES) {
      try {
        addConstants(Class.forName(name), keys);
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(name + " is not on the test class path", e);
      }
    }
    return new HadoopConfigKeys(keys);
  }

  private static void addConstants(Class<?> c, Set<String> keys) {
    for (Field f : c.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        try {
          String v = (String) f.get(null);
          if (v != null && v.matches("(fs|dfs|hadoop)\\.[A-Za-z0-9._-]+")) {
            keys.add(v);
          }
        } catch (IllegalAccessException e) {
          // not a public constant
        }
      }
    }
    for (Class<?> nested : c.getClasses()) {
      addConstants(nested, keys);
    }
  }

  boolean isKnown(String key) {
    return keys.contains(key);
  }

  /** The property names of a Hadoop {@code <configuration>} XML document. */
  static List<String> propertyNames(String xml) {
    try {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(new ByteArrayInputStream(xml.strip().getBytes(StandardCharsets.UTF_8)));
      NodeList names = doc.getElementsByTagName("name");
      List<String> out = new ArrayList<>();
      for (int i = 0; i < names.getLength(); i++) {
        out.add(names.item(i).getTextContent().trim());
      }
      return out;
    } catch (Exception e) {
      throw new IllegalArgumentException("not a Hadoop configuration XML document: " + e.getMessage(), e);
    }
  }
}
