package io.riverbed.format.write;

import io.riverbed.format.TableException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.LocatedFileStatus;

/**
 * Direct write markers, as Hudi lays them out: before a writer creates or appends to a data file
 * for instant T it creates {@code .hoodie/.temp/T/<partition>/<file>.marker.<TYPE>}. A rollback
 * of T reads the markers to find every file T may have touched, committed or not.
 */
public final class Markers {
  /** What a writer did to the file a marker names. */
  public enum Type { CREATE, MERGE, APPEND }

  /** A marker read back: the data file's partition, name and what was done to it. */
  public record Marker(String partitionPath, String fileName, Type type) {}

  private static final String SUFFIX = ".marker.";

  private final FileSystem fs;
  private final Path instantDir;

  private Markers(FileSystem fs, Path instantDir) {
    this.fs = fs;
    this.instantDir = instantDir;
  }

  /** The markers of {@code instantTime} in the table whose meta folder is {@code metaPath}. */
  public static Markers of(FileSystem fs, Path metaPath, String instantTime) {
    return new Markers(fs, new Path(new Path(metaPath, ".temp"), instantTime));
  }

  /** Creates the marker unless it exists (a retried append marks the same file again). */
  public void mark(String partitionPath, String fileName, Type type) {
    Path dir = partitionPath.isEmpty() ? instantDir : new Path(instantDir, partitionPath);
    Path marker = new Path(dir, fileName + SUFFIX + type.name());
    try {
      if (!fs.exists(marker)) {
        fs.create(marker, true).close();
      }
    } catch (IOException e) {
      throw new TableException("cannot create marker " + marker, e);
    }
  }

  /** Every marker of the instant; empty if none was written. */
  public List<Marker> list() {
    List<Marker> out = new ArrayList<>();
    try {
      if (!fs.exists(instantDir)) {
        return out;
      }
      String root = instantDir.toUri().getPath();
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(instantDir, true);
      while (it.hasNext()) {
        FileStatus st = it.next();
        String name = st.getPath().getName();
        int at = name.lastIndexOf(SUFFIX);
        if (at < 0) {
          continue;
        }
        String parent = st.getPath().getParent().toUri().getPath();
        String partition = parent.length() > root.length() ? parent.substring(root.length() + 1) : "";
        out.add(new Marker(partition, name.substring(0, at), Type.valueOf(name.substring(at + SUFFIX.length()))));
      }
      return out;
    } catch (FileNotFoundException e) {
      return out;
    } catch (IOException e) {
      throw new TableException("cannot list markers in " + instantDir, e);
    }
  }

  /** Removes the instant's marker folder once the instant is committed or rolled back. */
  public void delete() {
    try {
      fs.delete(instantDir, true);
    } catch (IOException e) {
      throw new TableException("cannot delete markers " + instantDir, e);
    }
  }
}
