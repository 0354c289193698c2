package io.riverbed.format.history;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of Hudi 1.x's LSM history files: data files {@code <min>_<max>_<layer>.parquet} (the
 * requested times of the first and last instant they hold, and their layer), manifests
 * {@code manifest_<N>} and the version file {@code _version_}, as Hudi's {@code LSMTimeline}
 * parses them.
 *
 * @param min the first instant's requested time
 * @param max the last instant's requested time
 * @param layer 0 for files an archival wrote, one more than its sources' for a compacted file
 */
public record LsmFileName(String min, String max, int layer) implements Comparable<LsmFileName> {
  /** The file naming the latest snapshot version. */
  public static final String VERSION_FILE = "_version_";
  static final String MANIFEST_PREFIX = "manifest_";
  private static final Pattern DATA_FILE = Pattern.compile("^(\\d+)_(\\d+)_(\\d)\\.parquet");
  private static final Pattern MANIFEST_FILE = Pattern.compile("^" + MANIFEST_PREFIX + "(\\d+)$");

  /** A layer-0 file for instants from {@code min} to {@code max}. */
  public static LsmFileName layerZero(String min, String max) {
    return new LsmFileName(min, max, 0);
  }

  /** The file a compaction of {@code sources} (of one layer) writes: their whole range, one layer up. */
  public static LsmFileName compactionOf(List<LsmFileName> sources) {
    String min = sources.stream().map(LsmFileName::min).min(String::compareTo).orElseThrow();
    String max = sources.stream().map(LsmFileName::max).max(String::compareTo).orElseThrow();
    return new LsmFileName(min, max, sources.get(0).layer() + 1);
  }

  /** The data file a name stands for; empty for any other name. */
  public static Optional<LsmFileName> parse(String fileName) {
    Matcher m = DATA_FILE.matcher(fileName);
    return m.matches() ? Optional.of(new LsmFileName(m.group(1), m.group(2), Integer.parseInt(m.group(3))))
        : Optional.empty();
  }

  /** {@code manifest_<version>}. */
  public static String manifest(int version) {
    return MANIFEST_PREFIX + version;
  }

  /** The version of a manifest's name; empty for any other name. */
  public static Optional<Integer> manifestVersion(String fileName) {
    Matcher m = MANIFEST_FILE.matcher(fileName);
    return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  public String fileName() {
    return min + "_" + max + "_" + layer + ".parquet";
  }

  /** By file name, as Hudi sorts a layer's files before choosing what to compact. */
  @Override
  public int compareTo(LsmFileName other) {
    return fileName().compareTo(other.fileName());
  }

  @Override
  public String toString() {
    return fileName();
  }
}
