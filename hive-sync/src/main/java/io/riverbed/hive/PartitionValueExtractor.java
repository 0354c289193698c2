package io.riverbed.hive;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the metastore partition values from a relative partition path, as the Apache Hudi class
 * of the same name does; chosen with {@code hoodie.datasource.hive_sync.partition_extractor_class}
 * by Hudi's class name, so existing configurations carry over.
 */
public enum PartitionValueExtractor {
  /** One value per path segment; a {@code key=} prefix is stripped. */
  MULTI_PART_KEYS("org.apache.hudi.hive.MultiPartKeysValueExtractor") {
    @Override
    List<String> extract(String path) {
      if (path.isEmpty()) {
        return List.of();
      }
      return Arrays.stream(path.split("/")).map(segment -> {
        if (!segment.contains("=")) {
          return segment;
        }
        String[] kv = segment.split("=");
        if (kv.length != 2) {
          throw new HiveSyncException("partition path segment '" + segment + "' of '" + path + "' is not key=value");
        }
        return kv[1];
      }).toList();
    }
  },
  /** No values: the table is not partitioned. */
  NON_PARTITIONED("org.apache.hudi.hive.NonPartitionedExtractor") {
    @Override
    List<String> extract(String path) {
      return List.of();
    }
  },
  /** The whole path as one value, {@code /} replaced by {@code -}. */
  SINGLE_PART("org.apache.hudi.hive.SinglePartPartitionValueExtractor") {
    @Override
    List<String> extract(String path) {
      return List.of(path.replace('/', '-'));
    }
  },
  /** One {@code key=value} segment; the value. */
  HIVE_STYLE("org.apache.hudi.hive.HiveStylePartitionValueExtractor") {
    @Override
    List<String> extract(String path) {
      String[] kv = path.split("=");
      if (kv.length != 2) {
        throw new HiveSyncException("partition path '" + path + "' is not in the form partition_key=partition_value");
      }
      return List.of(kv[1]);
    }
  },
  /** {@code yyyy/mm/dd} (segments may be {@code key=value}) as one value {@code yyyy-mm-dd}. */
  SLASH_ENCODED_DAY("org.apache.hudi.hive.SlashEncodedDayPartitionValueExtractor") {
    @Override
    List<String> extract(String path) {
      int[] n = numbers(path, 3, "yyyy/mm/dd");
      return List.of(LocalDate.of(n[0], n[1], n[2]).toString());
    }
  },
  /** {@code yyyy/mm/dd/HH} as one value {@code yyyy-mm-dd-HH}. */
  SLASH_ENCODED_HOUR("org.apache.hudi.hive.SlashEncodedHourPartitionValueExtractor") {
    @Override
    List<String> extract(String path) {
      int[] n = numbers(path, 4, "yyyy/mm/dd/HH");
      return List.of(LocalDate.of(n[0], n[1], n[2]) + "-" + String.format("%02d", n[3]));
    }
  };

  private final String className;

  PartitionValueExtractor(String className) {
    this.className = className;
  }

  /** Hudi's class name for this extractor. */
  public String className() {
    return className;
  }

  /**
   * The extractor Hudi's class {@code className} stands for.
   *
   * @throws HiveSyncException listing the supported names when there is none
   */
  public static PartitionValueExtractor forClassName(String className) {
    for (PartitionValueExtractor e : values()) {
      if (e.className.equals(className.trim())) {
        return e;
      }
    }
    throw new HiveSyncException(HiveSyncOptions.PARTITION_EXTRACTOR_CLASS + "='" + className
        + "' is not supported; accepted: " + String.join(", ", Arrays.stream(values()).map(e -> e.className).toList()));
  }

  /**
   * The partition values of a relative partition path, url-decoded when {@code decode}.
   *
   * @throws HiveSyncException when the path does not have this extractor's form
   */
  public List<String> values(String partitionPath, boolean decode) {
    List<String> values;
    try {
      values = extract(partitionPath);
    } catch (RuntimeException e) {
      if (e instanceof HiveSyncException) {
        throw e;
      }
      throw new HiveSyncException("partition path '" + partitionPath + "' does not fit " + className + ": " + e.getMessage(), e);
    }
    return decode ? values.stream().map(PartitionValueExtractor::urlDecode).toList() : values;
  }

  abstract List<String> extract(String partitionPath);

  private static String urlDecode(String value) {
    return java.net.URLDecoder.decode(value, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static int[] numbers(String path, int count, String form) {
    String[] segments = path.split("/");
    if (segments.length != count) {
      throw new HiveSyncException("partition path '" + path + "' is not in the form " + form);
    }
    int[] n = new int[count];
    for (int i = 0; i < count; i++) {
      String s = segments[i].contains("=") ? segments[i].split("=")[1] : segments[i];
      n[i] = Integer.parseInt(s);
    }
    return n;
  }
}
