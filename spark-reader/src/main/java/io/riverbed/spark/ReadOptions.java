package io.riverbed.spark;

import io.riverbed.format.TableException;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.timeline.InstantTime;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A read's options, checked: the path given to {@code load}, the query, and how splits are read.
 * Built from the DataSource options (keys compared case-insensitively, as Spark hands them over).
 *
 * @param path the path given to {@code load()}, possibly with a glob
 * @param query what to read
 * @param settings merge memory and spill folder
 * @param raw all options, keys lower-cased (shipped to executors)
 * @param hadoop options for the file system ({@code fs.*}, {@code dfs.*}, {@code hadoop.*}, keys as given),
 *     laid over the session's Hadoop configuration for this read, as Spark's file sources do
 */
public record ReadOptions(String path, QuerySpec query, ReadSettings settings, Map<String, String> raw,
    Map<String, String> hadoop) {
  public static final String PATH = "path";
  public static final String PATHS = "paths";

  public static ReadOptions from(Map<String, String> options) {
    Map<String, String> lower = new HashMap<>();
    options.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    String path = path(lower);
    for (ReadOption option : ReadOption.values()) {
      String value = lower.get(option.key());
      if (value != null && !option.allowedValues().isEmpty()
          && option.allowedValues().stream().noneMatch(a -> a.equalsIgnoreCase(value.trim()))) {
        throw new TableException("hudi: " + option.key() + "='" + value + "' is not supported; accepted: "
            + String.join(", ", option.allowedValues().stream().map(a -> a.isEmpty() ? "(empty)" : a).toList()));
      }
    }
    Optional.ofNullable(lower.get(QuerySpec.BEGIN_INSTANT)).ifPresent(b -> requireInstant(QuerySpec.BEGIN_INSTANT, b));
    for (String key : new String[] {QuerySpec.AS_OF_INSTANT, QuerySpec.END_INSTANT}) {
      String value = lower.get(key);
      if (value != null) {
        try {
          InstantTime.parseQueryInstant(value);
        } catch (TableException e) {
          throw new TableException("hudi: " + key + ": " + e.getMessage(), e);
        }
      }
    }
    QuerySpec spec;
    try {
      spec = QuerySpec.fromOptions(lower);
    } catch (TableException e) {
      throw new TableException("hudi: " + e.getMessage(), e);
    }
    ReadSettings settings;
    try {
      settings = ReadSettings.fromOptions(lower);
    } catch (NumberFormatException e) {
      throw new TableException("hudi: " + ReadSettings.MAX_MEMORY + "='" + lower.get(ReadSettings.MAX_MEMORY)
          + "' is not a number of bytes", e);
    }
    Map<String, String> hadoop = new HashMap<>();
    options.forEach((k, v) -> {
      String l = k.toLowerCase(Locale.ROOT);
      if (l.startsWith("fs.") || l.startsWith("dfs.") || l.startsWith("hadoop.")) {
        hadoop.put(k, v);
      }
    });
    return new ReadOptions(path, spec, settings, Map.copyOf(lower), Map.copyOf(hadoop));
  }

  /** {@code base} with this read's file-system options laid over it (a copy when there are any). */
  public org.apache.hadoop.conf.Configuration hadoopConf(org.apache.hadoop.conf.Configuration base) {
    if (hadoop.isEmpty()) {
      return base;
    }
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(base);
    hadoop.forEach(conf::set);
    return conf;
  }

  private static String path(Map<String, String> options) {
    String path = options.get(PATH);
    if (path == null && options.containsKey(PATHS)) {
      String paths = options.get(PATHS).trim();
      if (paths.startsWith("[") && paths.contains(",")) {
        throw new TableException("hudi: read one table at a time; got several paths " + paths);
      }
      path = paths.replaceAll("^\\[\\s*\"?|\"?\\s*]$", "");
    }
    if (path == null || path.isBlank()) {
      throw new TableException("hudi: no table path; use load(\"<table base path>\") or option(\"path\", ...)");
    }
    return path;
  }

  /** Begin instants are compared as strings; they must at least look like instant times (digits, e.g. 000). */
  private static void requireInstant(String key, String value) {
    String v = value.trim();
    if (v.matches("\\d{1,17}")) {
      return;
    }
    try {
      InstantTime.parseQueryInstant(v);
    } catch (TableException e) {
      throw new TableException("hudi: " + key + "='" + value + "' is not an instant time; use yyyyMMddHHmmssSSS "
          + "(or 000 for the start of the timeline)");
    }
    throw new TableException("hudi: " + key + "='" + value + "' must be an instant time as digits, e.g. "
        + InstantTime.parseQueryInstant(v));
  }
}
