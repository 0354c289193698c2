package io.riverbed.format.record;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Partition path strings as Hudi's key generators build them (format doc §1.5), the rule that
 * keeps them inside the table, and the way back from a partition path to partition column values.
 *
 * <h2>Confinement rule</h2>
 *
 * A partition value becomes path text: {@link #DEFAULT_PARTITION} when null or empty, else the
 * value itself, or with {@code hoodie.datasource.write.partitionpath.urlencode} its
 * {@link #escapePathName Hive/Hudi escaping} (which turns {@code /} and {@code :} into {@code %2F}
 * and {@code %3A} but keeps {@code .}). Without url encoding a {@code /} in a value makes nested
 * folders, as in Hudi ({@code 2024/06/01} is three levels). The text is split on {@code /}; a value
 * is refused ({@link #refusal}) when any of its segments
 * <ul>
 *   <li>is empty (a leading or trailing {@code /}, or {@code //}: an absolute path, or a path
 *       Hadoop's {@code Path} would silently shorten),
 *   <li>is {@code .} or {@code ..}, or starts with {@code .} ({@code .hoodie}, the table's
 *       metadata folder, {@code .hoodie_partition_metadata}, and every hidden name: Hudi, Hadoop
 *       input formats, Spark and Riverbed's partition listing skip or treat them specially) — also
 *       when {@code \} separates the parts, as Hudi's traversal check reads it,
 *   <li>contains {@code :} (Hadoop's {@code Path} reads {@code c:d} and {@code file:/x} as a URI
 *       scheme) or the NUL character (no file system stores it).
 * </ul>
 * The rule looks at the value's own text, so a value is accepted or refused the same way with or
 * without hive-style partitioning ({@code field=value}, applied per field). Every other value,
 * spaces, {@code %}, {@code =}, {@code #}, {@code ?} and non-ASCII text included, is written as
 * Hudi writes it and resolves to a folder below the base path that reads back to the same value.
 * {@link KeyGenerator} applies the rule to every record; a refused record fails with an
 * {@link InvalidRecordException} naming its key, the field and the value.
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

  /**
   * Hudi's {@code PartitionPathEncodeUtils.unescapePathName}, the inverse of {@link #escapePathName}:
   * a {@code %} followed by two characters that {@code Integer.parseInt(.., 16)} reads as a
   * non-negative number becomes that character ({@code %2F}, also {@code %+F} and {@code %-0});
   * anything else stays as it is.
   */
  public static String unescapePathName(String value) {
    if (value.indexOf('%') < 0) {
      return value;
    }
    var out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '%' && i + 2 < value.length()) {
        int code = hexCode(value.charAt(i + 1), value.charAt(i + 2));
        if (code >= 0) {
          out.append((char) code);
          i += 2;
          continue;
        }
      }
      out.append(c);
    }
    return out.toString();
  }

  /** {@code Integer.parseInt("" + a + b, 16)} when that is a number {@code >= 0}, else -1. */
  private static int hexCode(char a, char b) {
    int low = Character.digit(b, 16);
    if (low < 0) {
      return -1;
    }
    if (a == '+') {
      return low;
    }
    if (a == '-') {
      return low == 0 ? 0 : -1;
    }
    int high = Character.digit(a, 16);
    return high < 0 ? -1 : high << 4 | low;
  }

  /**
   * The path text of one partition value (null allowed), before any {@code field=} prefix:
   * {@link #DEFAULT_PARTITION} for null or empty, else the value, escaped when {@code urlEncode}.
   */
  public static String valueText(String value, boolean urlEncode) {
    if (value == null || value.isEmpty()) {
      return DEFAULT_PARTITION;
    }
    return urlEncode ? escapePathName(value) : value;
  }

  /**
   * Why the path text of a value ({@link #valueText}) breaks the confinement rule (see the class
   * comment), or empty when it keeps to it.
   */
  public static Optional<String> refusal(String valueText) {
    int start = 0;
    while (true) {
      int end = valueText.indexOf('/', start);
      String segment = valueText.substring(start, end < 0 ? valueText.length() : end);
      String why = segmentRefusal(segment);
      if (why != null) {
        return Optional.of(why);
      }
      if (end < 0) {
        return Optional.empty();
      }
      start = end + 1;
    }
  }

  private static String segmentRefusal(String segment) {
    if (segment.isEmpty()) {
      return "it has an empty path segment (a leading, trailing or double '/')";
    }
    if (segment.indexOf(':') >= 0) {
      return "path segment '" + segment + "' contains ':', which Hadoop paths read as a URI scheme"
          + " (set " + KeyGeneratorOptions.URL_ENCODE_PARTITION_PATH + "=true to encode it)";
    }
    if (segment.indexOf('\u0000') >= 0) {
      return "path segment contains the NUL character";
    }
    if (segment.indexOf('.') < 0) {
      return null;
    }
    for (String part : segment.split("\\\\", -1)) {
      if (part.startsWith(".")) {
        if (part.equals(".") || part.equals("..")) {
          return "path segment '" + part + "' names " + (part.length() == 1 ? "the folder itself" : "the parent folder")
              + " and would resolve outside the partition folders of the table";
        }
        return "path segment '" + part + "' starts with '.': hidden folders (.hoodie is the table's metadata folder)"
            + " are not partitions";
      }
    }
    return null;
  }

  /**
   * Builds one path segment for {@code field} with string value {@code value} (null allowed), the
   * way Hudi 0.15's {@code KeyGenUtils.getRecordPartitionPath} does, after the confinement rule.
   *
   * @throws InvalidRecordException naming the field and the value when the rule refuses it
   */
  public static String segment(String field, String value, boolean hiveStyle, boolean urlEncode) {
    String text = valueText(value, urlEncode);
    Optional<String> why = refusal(text);
    if (why.isPresent()) {
      throw new InvalidRecordException(refusedMessage(field, value, why.get()));
    }
    return hiveStyle ? field + "=" + text : text;
  }

  /** The message for a refused value: names the field, the value as given (quoted) and why. */
  static String refusedMessage(String field, String value, String why) {
    return "partition field '" + field + "' value " + quote(value) + " is refused: " + why
        + "; a partition value must stay a folder inside the table (see the partition path rule in docs/CONCEPTS.md)";
  }

  /** {@code value} in double quotes, with quotes, backslashes and control characters escaped. */
  static String quote(String value) {
    if (value == null) {
      return "null";
    }
    var out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < ' ' || c == '\u007F') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
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
