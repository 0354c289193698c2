package io.riverbed.format.record;

import io.riverbed.format.TableException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Partition path strings as Hudi's key generators build them (format doc §1.5), and the way back
 * from a partition path to partition column values.
 */
public final class PartitionPaths {
  /** Written for a null or empty partition value. */
  public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";
  /** The default that very old tables used instead of {@link #DEFAULT_PARTITION}. */
  public static final String DEPRECATED_DEFAULT_PARTITION = "default";
  /** Separator between the values of several partition fields. */
  public static final String SEPARATOR = "/";

  // Hive's FileUtils.escapePathName set: ASCII controls and " # % ' * / : = ? \ DEL { [ ] ^
  private static final boolean[] ESCAPED = new boolean[128];

  static {
    for (char c = 0; c < ' '; c++) {
      ESCAPED[c] = true;
    }
    for (char c : "\"#%'*/:=?\\\u007F{[]^".toCharArray()) {
      ESCAPED[c] = true;
    }
  }

  private PartitionPaths() {}

  /**
   * Hive's path escaping as Hudi applies it with {@code hoodie.datasource.write.partitionpath.urlencode}:
   * each character of the escape set becomes {@code %XX} (upper-case hex); characters at or above
   * 128 are kept. Null or empty becomes {@link #DEFAULT_PARTITION}.
   */
  public static String escapePathName(String value) {
    if (value == null || value.isEmpty()) {
      return DEFAULT_PARTITION;
    }
    StringBuilder out = null;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 128 && ESCAPED[c]) {
        if (out == null) {
          out = new StringBuilder(value.length() + 8).append(value, 0, i);
        }
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? value : out.toString();
  }

  /** Inverse of {@link #escapePathName}: {@code %XX} with two hex digits becomes that character. */
  public static String unescapePathName(String value) {
    if (value.indexOf('%') < 0) {
      return value;
    }
    var out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '%' && i + 2 < value.length()) {
        int hi = Character.digit(value.charAt(i + 1), 16);
        int lo = Character.digit(value.charAt(i + 2), 16);
        if (hi >= 0 && lo >= 0) {
          out.append((char) (hi << 4 | lo));
          i += 2;
          continue;
        }
      }
      out.append(c);
    }
    return out.toString();
  }

  /**
   * Builds one path segment for {@code field} with string value {@code value} (null allowed), the
   * way Hudi 0.15's {@code KeyGenUtils.getRecordPartitionPath} does.
   */
  public static String segment(String field, String value, boolean hiveStyle, boolean urlEncode) {
    String text;
    if (value == null || value.isEmpty()) {
      text = DEFAULT_PARTITION;
    } else {
      text = urlEncode ? escapePathName(value) : value;
    }
    return hiveStyle ? field + "=" + text : text;
  }

  /**
   * Partition column values of {@code partitionPath}, in field order; the inverse of the key
   * generator. A {@link #DEFAULT_PARTITION} value comes back as null. For a non-partitioned table
   * ({@code fields} empty) the map is empty.
   *
   * <p>Without hive style, a path with more segments than fields is read the way Hudi does for a
   * single field: the whole path is the value (a value may itself contain {@code /} when not
   * url-encoded). With several fields the segment count must match.
   *
   * @throws TableException when the path does not fit the fields
   */
  public static Map<String, String> parse(String partitionPath, List<String> fields, boolean hiveStyle, boolean urlEncoded) {
    if (fields.isEmpty()) {
      if (!partitionPath.isEmpty()) {
        throw new TableException("partition path '" + partitionPath + "' given for a non-partitioned table");
      }
      return Collections.emptyMap();
    }
    List<String> segments = splitSegments(partitionPath, fields, hiveStyle);
    var values = new LinkedHashMap<String, String>();
    for (int i = 0; i < fields.size(); i++) {
      String field = fields.get(i);
      String segment = segments.get(i);
      String text = segment;
      if (hiveStyle) {
        String prefix = field + "=";
        if (!segment.startsWith(prefix)) {
          throw new TableException("partition path '" + partitionPath + "': segment '" + segment
              + "' does not start with '" + prefix + "' (hive-style partitioning over fields " + fields + ")");
        }
        text = segment.substring(prefix.length());
      }
      if (DEFAULT_PARTITION.equals(text)) {
        values.put(field, null);
      } else {
        values.put(field, urlEncoded ? unescapePathName(text) : text);
      }
    }
    return values;
  }

  private static List<String> splitSegments(String partitionPath, List<String> fields, boolean hiveStyle) {
    if (fields.size() == 1) {
      return List.of(partitionPath);
    }
    if (hiveStyle) {
      // cut before each "/<field>=" so values containing '/' survive when the fields are known
      var segments = new ArrayList<String>(fields.size());
      int start = 0;
      for (int i = 1; i < fields.size(); i++) {
        String marker = SEPARATOR + fields.get(i) + "=";
        int at = partitionPath.indexOf(marker, start);
        if (at < 0) {
          throw mismatch(partitionPath, fields);
        }
        segments.add(partitionPath.substring(start, at));
        start = at + 1;
      }
      segments.add(partitionPath.substring(start));
      return segments;
    }
    String[] parts = partitionPath.split(SEPARATOR, -1);
    if (parts.length != fields.size()) {
      throw mismatch(partitionPath, fields);
    }
    return List.of(parts);
  }

  private static TableException mismatch(String partitionPath, List<String> fields) {
    return new TableException("partition path '" + partitionPath + "' does not have one segment per partition field "
        + fields);
  }
}
