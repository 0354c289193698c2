package io.riverbed.format.table;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Java properties text as Hudi writes it ({@link Properties#store}: ISO-8859-1, escaping,
 * {@code #comment} and {@code #date} lines), with entries in key order so files are stable.
 */
final class PropertiesText {

  private PropertiesText() {}

  static byte[] store(Map<String, String> entries, String comment) {
    var props = new SortedProperties();
    entries.forEach(props::setProperty);
    var out = new ByteArrayOutputStream();
    try {
      props.store(out, comment);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Loads properties text; throws IOException or IllegalArgumentException (bad escapes). */
  static Map<String, String> load(InputStream in) throws IOException {
    var props = new Properties();
    props.load(in);
    var map = new TreeMap<String, String>();
    props.stringPropertyNames().forEach(k -> map.put(k, props.getProperty(k)));
    return map;
  }

  /** Properties whose {@code store} writes entries in key order. */
  private static final class SortedProperties extends Properties {
    @Override
    public Set<Map.Entry<Object, Object>> entrySet() {
      var sorted = new TreeMap<Object, Object>((a, b) -> a.toString().compareTo(b.toString()));
      for (var e : super.entrySet()) {
        sorted.put(e.getKey(), e.getValue());
      }
      return Collections.unmodifiableSet(new LinkedHashSet<>(sorted.entrySet()));
    }
  }
}
