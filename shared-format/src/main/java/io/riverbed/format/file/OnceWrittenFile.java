package io.riverbed.format.file;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Creates small metadata files (timeline instants, partition markers) that are written once and
 * never seen half-written. Object stores get a single PUT; other file systems get a temporary
 * file renamed into place. Checksummed local file systems are bypassed for these files so that
 * no {@code .crc} side file can disagree with the data after a race.
 */
public final class OnceWrittenFile {
  private static final Set<String> OBJECT_STORE_SCHEMES =
      Set.of("s3", "s3a", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cos");

  private OnceWrittenFile() {}

  /**
   * Writes {@code content} to {@code target} unless it exists.
   *
   * @param tempDir folder for the temporary file, on the same file system as {@code target}
   * @return false if {@code target} existed already, or was created concurrently by another
   *     writer (its content is left as it was)
   */
  public static boolean create(FileSystem fileSystem, Path target, byte[] content, Path tempDir) throws IOException {
    FileSystem fs = fileSystem instanceof ChecksumFileSystem c ? c.getRawFileSystem() : fileSystem;
    if (fs.exists(target)) {
      return false;
    }
    if (OBJECT_STORE_SCHEMES.contains(fs.getUri().getScheme())) {
      // A no-overwrite create on an object store checks for the object first (s3a: a HEAD) and
      // throws if a concurrent writer created it since our exists(): that writer won the race.
      try (OutputStream out = fs.create(target, false)) {
        out.write(content);
      } catch (FileAlreadyExistsException e) {
        return false;
      }
      return true;
    }
    Path temp = new Path(tempDir, "." + target.getName() + "." + UUID.randomUUID());
    try {
      try (OutputStream out = fs.create(temp, false)) {
        out.write(content);
      }
      if (fs.exists(target)) {
        return false;
      }
      return fs.rename(temp, target);
    } finally {
      if (fs.exists(temp)) {
        fs.delete(temp, false);
      }
    }
  }
}
