package io.riverbed.format.file;

import org.apache.hadoop.fs.Path;

/** A Parquet base file of a file slice. */
public record BaseFile(Path path, String fileId, String writeToken, String instantTime, long length) {
  public String fileName() {
    return path.getName();
  }

  /** Reads the parts of the name; empty if {@code path} is not a base file. */
  public static java.util.Optional<BaseFile> of(Path path, long length) {
    return FileNames.parseBaseFileName(path.getName())
        .map(n -> new BaseFile(path, n.fileId(), n.writeToken(), n.instantTime(), length));
  }
}
