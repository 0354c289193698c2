package io.riverbed.format.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Finds a table's partitions without the metadata table, as Hudi's file-system-backed listing
 * does: breadth-first from the base path, a folder holding a partition marker is a partition
 * (and is not descended), {@code .hoodie} and other hidden folders are skipped.
 */
public final class PartitionDiscovery {

  private PartitionDiscovery() {}

  /** Relative paths of all partitions, sorted; {@code [""]} for a non-partitioned table. */
  public static List<String> listPartitions(FileSystem fs, Path basePath) {
    var partitions = new ArrayList<String>();
    var queue = new ArrayDeque<String>();
    queue.add("");
    try {
      while (!queue.isEmpty()) {
        String relative = queue.poll();
        Path folder = relative.isEmpty() ? basePath : new Path(basePath, relative);
        FileStatus[] children = fs.listStatus(folder);
        boolean isPartition = false;
        var subfolders = new ArrayList<String>();
        for (FileStatus child : children) {
          String name = child.getPath().getName();
          if (child.isFile() && name.equals(PartitionMetadata.FILE_NAME)) {
            isPartition = true;
          } else if (child.isDirectory() && !name.startsWith(".")) {
            subfolders.add(relative.isEmpty() ? name : relative + "/" + name);
          }
        }
        if (isPartition) {
          partitions.add(relative);
        } else {
          Collections.sort(subfolders);
          queue.addAll(subfolders);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list partitions of table " + basePath, e);
    }
    Collections.sort(partitions);
    return partitions;
  }
}
