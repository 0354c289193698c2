package io.riverbed.format.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.riverbed.format.file.LogFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Rewrites a MERGE_ON_READ table written one log file per delta commit into the layout a writer on
 * storage that can append (Hudi on HDFS, Hudi's Flink writer) leaves: each file slice's log files
 * joined, in log order, into its first, and each completed delta commit's write stat naming that
 * file with the length it had once that commit was written. The blocks are unchanged (a log file is
 * a sequence of self-describing blocks), so every reader must answer as before on snapshots.
 */
public final class AppendedLogFiles {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AppendedLogFiles() {}

  /** Joins the log files under {@code basePath}; returns how many files were appended to another. */
  public static int join(FileSystem fs, Path basePath) {
    try {
      Map<String, Map.Entry<String, Long>> moved = new HashMap<>();
      int joined = 0;
      for (List<LogFile> logs : sliceLogs(fs, basePath).values()) {
        LogFile first = logs.get(0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (LogFile log : logs) {
          try (InputStream in = fs.open(log.path())) {
            in.transferTo(bytes);
          }
          moved.put(relative(basePath, log.path()), Map.entry(relative(basePath, first.path()), (long) bytes.size()));
        }
        if (logs.size() == 1) {
          continue;
        }
        try (OutputStream out = fs.create(first.path(), true)) {
          bytes.writeTo(out);
        }
        for (LogFile log : logs.subList(1, logs.size())) {
          fs.delete(log.path(), false);
          joined++;
        }
      }
      for (FileStatus commit : fs.listStatus(new Path(basePath, ".hoodie"), p -> p.getName().endsWith(".deltacommit"))) {
        rewriteWriteStats(fs, commit.getPath(), moved);
      }
      return joined;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot join the log files of " + basePath, e);
    }
  }

  /** Log files by partition folder, file id and base instant, each list in log order. */
  private static Map<String, List<LogFile>> sliceLogs(FileSystem fs, Path basePath) throws IOException {
    Map<String, List<LogFile>> slices = new TreeMap<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(basePath, true);
    while (files.hasNext()) {
      LocatedFileStatus f = files.next();
      if (relative(basePath, f.getPath()).startsWith(".hoodie")) {
        continue;
      }
      LogFile.of(f.getPath(), f.getLen()).ifPresent(log -> slices
          .computeIfAbsent(f.getPath().getParent() + "/" + log.fileId() + "_" + log.baseInstant(), k -> new ArrayList<>())
          .add(log));
    }
    slices.values().forEach(l -> l.sort(LogFile.ORDER));
    return slices;
  }

  private static void rewriteWriteStats(FileSystem fs, Path commit, Map<String, Map.Entry<String, Long>> moved)
      throws IOException {
    JsonNode metadata;
    try (InputStream in = fs.open(commit)) {
      metadata = JSON.readTree(in);
    }
    boolean changed = false;
    for (JsonNode stats : (Iterable<JsonNode>) () -> metadata.path("partitionToWriteStats").elements()) {
      for (JsonNode stat : stats) {
        Map.Entry<String, Long> to = moved.get(stat.path("path").asText());
        if (to != null) {
          ((ObjectNode) stat).put("path", to.getKey());
          ((ObjectNode) stat).put("fileSizeInBytes", to.getValue());
          changed = true;
        }
      }
    }
    if (changed) {
      try (OutputStream out = fs.create(commit, true)) {
        JSON.writerWithDefaultPrettyPrinter().writeValue(out, metadata);
      }
    }
  }

  private static String relative(Path basePath, Path file) {
    String base = basePath.toUri().getPath().replaceAll("/+$", "");
    String path = file.toUri().getPath();
    return path.startsWith(base + "/") ? path.substring(base.length() + 1) : path;
  }
}
