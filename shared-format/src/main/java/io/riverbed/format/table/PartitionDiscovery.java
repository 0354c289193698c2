package io.riverbed.format.table;

import io.riverbed.format.TableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Finds a table's partitions without the metadata table, as Hudi's file-system-backed listing
 * does: breadth-first from the base path, a folder holding a partition marker is a partition.
 *
 * <p>It never returns a partial table silently. Partitions are folders below the base path that
 * the partition path rule ({@code record.PartitionPaths}) lets a writer make, so a partition marker
 * anywhere else means records that a query would leave out; the listing then fails naming the
 * folder:
 * <ul>
 *   <li>a marker in {@code .hoodie} (written by a partition value {@code .hoodie}), or in a hidden
 *       folder ({@code .x}, at any depth; {@code .hoodie}'s own sub folders, the metadata table
 *       among them, are not searched);
 *   <li>a partition inside another partition, the base path included (a partition value {@code .}
 *       put a marker in the base path of a partitioned table; values {@code 2024} and
 *       {@code 2024/06} nest one partition in another).
 * </ul>
 * Folders without a marker (and hidden folders without one below them) are skipped. The walk lists
 * every partition folder, so it hands out the files it saw there too ({@link #listPartitionFiles}):
 * a query's file view needs no second listing of each partition.
 */
public final class PartitionDiscovery {
  private static final String META_FOLDER = ".hoodie";

  private PartitionDiscovery() {}

  /** A folder to list: its path relative to the base path, the partition it lies in, the hidden folder it lies in. */
  private record Folder(String relative, String insidePartition, String insideHidden) {}

  /**
   * Relative paths of all partitions, sorted; {@code [""]} for a non-partitioned table.
   *
   * @throws TableException naming the folder when a partition marker lies where no partition can be
   */
  public static List<String> listPartitions(FileSystem fs, Path basePath) {
    return new ArrayList<>(listPartitionFiles(fs, basePath).keySet());
  }

  /**
   * Every partition (sorted, as {@link #listPartitions}) with the files directly inside its folder,
   * from the same listing.
   */
  public static Map<String, List<FileStatus>> listPartitionFiles(FileSystem fs, Path basePath) {
    var partitions = new TreeMap<String, List<FileStatus>>();
    var queue = new ArrayDeque<Folder>();
    queue.add(new Folder("", null, null));
    try {
      while (!queue.isEmpty()) {
        Folder folder = queue.poll();
        String relative = folder.relative();
        FileStatus[] children = fs.listStatus(relative.isEmpty() ? basePath : new Path(basePath, relative));
        boolean isPartition = false;
        var subfolders = new ArrayList<String>();
        var files = new ArrayList<FileStatus>();
        for (FileStatus child : children) {
          String name = child.getPath().getName();
          if (child.isFile()) {
            files.add(child);
            isPartition |= name.equals(PartitionMetadata.FILE_NAME);
          } else if (child.isDirectory()) {
            subfolders.add(name);
          }
        }
        if (isPartition) {
          if (folder.insideHidden() != null) {
            throw misplaced(basePath, relative, "lies in the hidden folder '" + folder.insideHidden()
                + "', which is not a partition");
          }
          if (folder.insidePartition() != null) {
            throw misplaced(basePath, relative, "lies inside the partition "
                + (folder.insidePartition().isEmpty() ? "'' (the base path)" : "'" + folder.insidePartition() + "'"));
          }
          partitions.put(relative, List.copyOf(files));
        }
        Collections.sort(subfolders);
        String partition = isPartition ? relative : folder.insidePartition();
        for (String name : subfolders) {
          String path = relative.isEmpty() ? name : relative + "/" + name;
          if (relative.isEmpty() && name.equals(META_FOLDER)) {
            if (fs.exists(new Path(new Path(basePath, META_FOLDER), PartitionMetadata.FILE_NAME))) {
              throw misplaced(basePath, META_FOLDER, "is the table's metadata folder");
            }
          } else if (name.startsWith(".")) {
            queue.add(new Folder(path, partition, folder.insideHidden() == null ? path : folder.insideHidden()));
          } else {
            queue.add(new Folder(path, partition, folder.insideHidden()));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list partitions of table " + basePath, e);
    }
    return Collections.unmodifiableMap(partitions);
  }

  private static TableException misplaced(Path basePath, String folder, String where) {
    return new TableException("cannot list the partitions of table " + basePath + ": folder '" + folder
        + "' holds a partition marker (" + PartitionMetadata.FILE_NAME + ") but " + where
        + "; its records were written by a partition value that the partition path rule now refuses,"
        + " and a query would leave them out. Move its files into a partition folder or remove them"
        + " (see docs/TROUBLESHOOTING.md)");
  }
}
