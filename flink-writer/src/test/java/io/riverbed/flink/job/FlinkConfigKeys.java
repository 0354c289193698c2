package io.riverbed.flink.job;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;

/**
 * Every Flink configuration key this classpath defines: the {@code public static ConfigOption}
 * fields of the {@code org.apache.flink..*Options} classes in Flink's jars, found by reflection.
 * Recipes (deploy/flink, deploy/k8s) are checked against it, so a misspelt or removed key fails a test.
 */
final class FlinkConfigKeys {
  /**
   * Keys Flink accepts by prefix rather than as options: {@code flink.hadoop.*} is copied into the
   * Hadoop configuration of Flink's Hadoop file systems (HadoopUtils.getHadoopConfiguration).
   */
  static final List<String> PREFIXES = List.of("flink.hadoop.");

  private final Map<String, ConfigOption<?>> options;
  private final Map<String, String> deprecated;

  private FlinkConfigKeys(Map<String, ConfigOption<?>> options, Map<String, String> deprecated) {
    this.options = options;
    this.deprecated = deprecated;
  }

  /** Scans the Flink jars of this JVM's class path. */
  static FlinkConfigKeys scan() {
    Map<String, ConfigOption<?>> options = new HashMap<>();
    Map<String, String> deprecated = new HashMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = new File(entry).getName();
      if (!name.startsWith("flink-") || !name.endsWith(".jar")) {
        continue;
      }
      for (Class<?> c : optionClasses(entry)) {
        for (Field f : c.getFields()) {
          if (Modifier.isStatic(f.getModifiers()) && ConfigOption.class.isAssignableFrom(f.getType())) {
            ConfigOption<?> option = read(f);
            if (option != null) {
              options.put(option.key(), option);
              for (FallbackKey k : option.fallbackKeys()) {
                if (k.isDeprecated()) {
                  deprecated.put(k.getKey(), option.key());
                }
              }
            }
          }
        }
      }
    }
    if (options.size() < 500) {
      throw new IllegalStateException("found only " + options.size() + " Flink options on the class path");
    }
    return new FlinkConfigKeys(options, deprecated);
  }

  private static List<Class<?>> optionClasses(String jar) {
    List<Class<?>> out = new ArrayList<>();
    try (JarFile file = new JarFile(jar)) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
        String n = e.nextElement().getName();
        if (n.startsWith("org/apache/flink/") && n.endsWith("Options.class") && !n.contains("$")) {
          try {
            out.add(Class.forName(n.substring(0, n.length() - 6).replace('/', '.'), true, FlinkConfigKeys.class.getClassLoader()));
          } catch (ClassNotFoundException | LinkageError notLoadableHere) {
            // an options class of a module whose dependencies are not on this class path
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static ConfigOption<?> read(Field f) {
    try {
      return (ConfigOption<?>) f.get(null);
    } catch (IllegalAccessException e) {
      return null;
    }
  }

  /**
   * What is wrong with {@code key=value} as a Flink option, if anything: an unknown key, a
   * deprecated key (named with its replacement), or a value the option cannot parse.
   */
  Optional<String> problem(String key, String value) {
    if (PREFIXES.stream().anyMatch(key::startsWith)) {
      return Optional.empty();
    }
    if (deprecated.containsKey(key)) {
      return Optional.of("Flink option '" + key + "' is deprecated in Flink 1.20; use '" + deprecated.get(key) + "'");
    }
    ConfigOption<?> option = options.get(key);
    if (option == null) {
      return Optional.of("'" + key + "' is not a Flink 1.20 configuration option");
    }
    try {
      Configuration conf = new Configuration();
      conf.setString(key, value);
      conf.get(option);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("Flink option '" + key + "': '" + value + "' is not a valid value (" + e.getMessage() + ")");
    }
  }
}
