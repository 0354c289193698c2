package io.riverbed.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A table's data files as listed: per file group its latest base file (by the instant in its
 * name; no compaction or clustering runs in the read benchmarks, so that is the group's current
 * one) and its log files; and the completed write instants of its timeline, oldest first.
 */
record TableLayout(int fileGroups, int withLogs, int maxLogsPerGroup, List<String> baseFiles, long baseBytes,
    int logFiles, long logBytes, List<String> writeInstants) {

  static TableLayout of(Path table) throws IOException {
    Map<String, Path> baseByGroup = new TreeMap<>();
    Map<String, Integer> logsByGroup = new TreeMap<>();
    long logBytes = 0;
    int logs = 0;
    try (Stream<Path> files = Files.walk(table)) {
      for (Path f : files.filter(Files::isRegularFile).filter(f -> !table.relativize(f).startsWith(".hoodie"))
          .filter(f -> !f.getFileName().toString().endsWith(".crc")).toList()) {
        String name = f.getFileName().toString();
        String group = table.relativize(f.getParent()) + "/";
        if (name.endsWith(".parquet")) {
          baseByGroup.merge(group + name.substring(0, name.indexOf('_')), f,
              (a, b) -> instantOf(a).compareTo(instantOf(b)) >= 0 ? a : b);
        } else if (name.startsWith(".") && name.contains(".log.")) {
          logsByGroup.merge(group + name.substring(1, name.indexOf('_')), 1, Integer::sum);
          logBytes += Files.size(f);
          logs++;
        }
      }
    }
    long baseBytes = 0;
    for (Path base : baseByGroup.values()) {
      baseBytes += Files.size(base);
    }
    List<String> bases = baseByGroup.values().stream().sorted(Comparator.naturalOrder())
        .map(p -> p.toUri().toString()).toList();
    return new TableLayout(baseByGroup.size(), logsByGroup.size(),
        logsByGroup.values().stream().mapToInt(Integer::intValue).max().orElse(0), bases, baseBytes, logs, logBytes,
        writeInstants(table.resolve(".hoodie")));
  }

  /** The instant of a base file name {@code <fileId>_<writeToken>_<instant>.parquet}. */
  private static String instantOf(Path baseFile) {
    String name = baseFile.getFileName().toString();
    return name.substring(name.lastIndexOf('_') + 1, name.indexOf('.'));
  }

  /** Completed commits and delta commits, oldest first. */
  private static List<String> writeInstants(Path timeline) throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(timeline)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith(".commit") || name.endsWith(".deltacommit")) {
          out.add(name.substring(0, name.indexOf('.')));
        }
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** How many file groups, with logs, and the file counts and sizes, for a report line. */
  String describe() {
    return String.format(java.util.Locale.ROOT, "%d file groups, %d with log files (%.0f%%, up to %d log files in one), "
            + "%d base files read by a snapshot (%.1f MB), %d log files (%.1f MB), %d completed writes",
        fileGroups, withLogs, 100.0 * withLogs / fileGroups, maxLogsPerGroup, baseFiles.size(), baseBytes / 1e6, logFiles,
        logBytes / 1e6, writeInstants.size());
  }
}
