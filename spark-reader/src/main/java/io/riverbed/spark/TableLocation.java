package io.riverbed.spark;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where the table of a {@code load(path)} lives. A plain path must be the table's base path. A
 * path with a glob (the legacy {@code load(basePath + "/*}{@code /*")} form) names the table whose
 * base path is the nearest folder above the glob holding {@code .hoodie}; the glob below the base
 * path then restricts the partitions read, as Hudi's reader does with globbed paths.
 *
 * @param basePath the table base path, qualified
 * @param partitionGlob the glob relative to the base path, if the path had one
 */
public record TableLocation(Path basePath, Optional<String> partitionGlob) {

  public static TableLocation resolve(FileSystem fs, String path) {
    String trimmed = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    List<String> segments = new ArrayList<>(Arrays.asList(trimmed.split("/", -1)));
    int firstGlob = -1;
    for (int i = 0; i < segments.size(); i++) {
      if (hasGlob(segments.get(i))) {
        firstGlob = i;
        break;
      }
    }
    if (firstGlob < 0) {
      Path p = fs.makeQualified(new Path(trimmed));
      if (!Table.exists(fs, p)) {
        throw notATable(fs, p);
      }
      return new TableLocation(p, Optional.empty());
    }
    String fixed = String.join("/", segments.subList(0, firstGlob));
    Path candidate = fs.makeQualified(new Path(fixed.isEmpty() ? "/" : fixed));
    List<String> below = new ArrayList<>(segments.subList(firstGlob, segments.size()));
    while (candidate != null && !Table.exists(fs, candidate)) {
      below.add(0, candidate.getName());
      candidate = candidate.getParent();
    }
    if (candidate == null) {
      throw new InvalidTableException("hudi: no Hudi table (a folder holding .hoodie/hoodie.properties) at or above "
          + fixed + " in the glob path " + path);
    }
    return new TableLocation(candidate, Optional.of(String.join("/", below)));
  }

  private static InvalidTableException notATable(FileSystem fs, Path p) {
    try {
      if (!fs.exists(p)) {
        return new InvalidTableException("hudi: " + p + " does not exist");
      }
      for (Path up = p.getParent(); up != null; up = up.getParent()) {
        if (Table.exists(fs, up)) {
          return new InvalidTableException("hudi: " + p + " is inside the Hudi table at " + up
              + "; load the table's base path (or a glob such as " + up + "/*)");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check " + p, e);
    }
    return new InvalidTableException("hudi: " + p + " is not a Hudi table: no " + Table.META_FOLDER + "/hoodie.properties");
  }

  static boolean hasGlob(String segment) {
    return segment.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
  }

  /**
   * Whether a partition (relative path, {@code ""} for none) is read under the glob: the glob and
   * the partition path agree on every segment both have (a glob may stop above the partition
   * folders or go down to the files in them).
   */
  public boolean includesPartition(String partitionPath) {
    if (partitionGlob.isEmpty()) {
      return true;
    }
    String[] glob = partitionGlob.get().split("/");
    String[] parts = partitionPath.isEmpty() ? new String[0] : partitionPath.split("/");
    if (glob.length > parts.length + 1) {
      return false;
    }
    for (int i = 0; i < Math.min(glob.length, parts.length); i++) {
      if (!segmentPattern(glob[i]).matcher(parts[i]).matches()) {
        return false;
      }
    }
    return true;
  }

  /** One glob segment as a regex: {@code * ? [..] {a,b}}, everything else literal. */
  static Pattern segmentPattern(String glob) {
    StringBuilder re = new StringBuilder();
    boolean inBraces = false;
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> re.append("[^/]*");
        case '?' -> re.append("[^/]");
        case '[' -> {
          int end = glob.indexOf(']', i);
          if (end < 0) {
            re.append("\\[");
          } else {
            String cls = glob.substring(i + 1, end).replace("\\", "\\\\");
            re.append('[').append(cls.startsWith("^") || cls.startsWith("!") ? "^" + cls.substring(1) : cls).append(']');
            i = end;
          }
        }
        case '{' -> {
          inBraces = true;
          re.append("(?:");
        }
        case '}' -> {
          if (inBraces) {
            inBraces = false;
            re.append(')');
          } else {
            re.append("\\}");
          }
        }
        case ',' -> re.append(inBraces ? "|" : ",");
        default -> re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString());
  }
}
