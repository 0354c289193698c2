package io.riverbed.format.log;

import org.apache.hadoop.fs.Path;

/** Where a block was read from: file, byte offset of its first byte, and its total length on disk. */
public record BlockLocation(Path file, long offset, long length) {
  @Override
  public String toString() {
    return file + " at offset " + offset + " (" + length + " bytes)";
  }
}
