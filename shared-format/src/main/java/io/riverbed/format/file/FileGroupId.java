package io.riverbed.format.file;

/** A file group: a file id within a partition ({@code ""} for non-partitioned tables). */
public record FileGroupId(String partitionPath, String fileId) implements Comparable<FileGroupId> {
  @Override
  public int compareTo(FileGroupId o) {
    int c = partitionPath.compareTo(o.partitionPath);
    return c != 0 ? c : fileId.compareTo(o.fileId);
  }

  @Override
  public String toString() {
    return partitionPath.isEmpty() ? fileId : partitionPath + "/" + fileId;
  }
}
