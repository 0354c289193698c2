package io.riverbed.format.table;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.file.OnceWrittenFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition marker {@code .hoodie_partition_metadata}: properties text with the instant that
 * first wrote into the partition and the partition's depth below the base path. Every partition
 * folder needs one; it is created once and never rewritten.
 */
public record PartitionMetadata(String commitTime, int partitionDepth) {

  public static final String FILE_NAME = ".hoodie_partition_metadata";
  static final String COMMIT_TIME_KEY = "commitTime";
  static final String PARTITION_DEPTH_KEY = "partitionDepth";
  private static final String COMMENT = "partition metadata";

  private static final Logger LOG = LoggerFactory.getLogger(PartitionMetadata.class);

  /** Number of path levels of a relative partition path: 0 for {@code ""}, 2 for {@code a=1/b=2}. */
  public static int depthOf(String relativePartitionPath) {
    int depth = 0;
    for (String part : relativePartitionPath.split("/")) {
      if (!part.isEmpty()) {
        depth++;
      }
    }
    return depth;
  }

  /** The marker file of a partition folder. */
  public static Path markerPath(Path partitionFolder) {
    return new Path(partitionFolder, FILE_NAME);
  }

  /** The properties text Hudi writes for this marker. */
  public byte[] toBytes() {
    var entries = new TreeMap<String, String>();
    entries.put(COMMIT_TIME_KEY, commitTime);
    entries.put(PARTITION_DEPTH_KEY, String.valueOf(partitionDepth));
    return PropertiesText.store(entries, COMMENT);
  }

  /**
   * Creates the marker of a partition unless it exists: writes a uniquely named temporary file
   * and renames it into place, as Hudi does. A concurrent creator winning the race is fine.
   * Creates the partition folder if needed.
   *
   * @return true if this call created the marker
   */
  public static boolean writeIfAbsent(
      FileSystem fs, Path basePath, String relativePartitionPath, String commitTime) {
    Path folder = relativePartitionPath.isEmpty() ? basePath : new Path(basePath, relativePartitionPath);
    Path marker = markerPath(folder);
    var metadata = new PartitionMetadata(commitTime, depthOf(relativePartitionPath));
    try {
      if (fs.exists(marker)) {
        return false;
      }
      fs.mkdirs(folder);
      boolean created = OnceWrittenFile.create(fs, marker, metadata.toBytes(), folder);
      if (created) {
        LOG.debug("Created partition marker {}", marker);
      }
      return created;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create partition marker " + marker, e);
    }
  }

  /** True if the folder holds a partition marker. */
  public static boolean exists(FileSystem fs, Path partitionFolder) {
    try {
      return fs.exists(markerPath(partitionFolder));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check " + markerPath(partitionFolder), e);
    }
  }

  /** Reads the marker of a partition folder; empty if there is none. */
  public static Optional<PartitionMetadata> read(FileSystem fs, Path partitionFolder) {
    Path marker = markerPath(partitionFolder);
    Map<String, String> entries;
    try (InputStream in = fs.open(marker)) {
      entries = PropertiesText.load(in);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      throw new CorruptFileException("cannot read partition marker " + marker + ": " + e.getMessage(), e);
    }
    String depth = entries.get(PARTITION_DEPTH_KEY);
    if (depth == null) {
      throw new CorruptFileException("partition marker " + marker + " has no " + PARTITION_DEPTH_KEY);
    }
    try {
      return Optional.of(new PartitionMetadata(entries.get(COMMIT_TIME_KEY), Integer.parseInt(depth.trim())));
    } catch (NumberFormatException e) {
      throw new CorruptFileException(
          "partition marker " + marker + ": " + PARTITION_DEPTH_KEY + " '" + depth + "' is not a number");
    }
  }
}
