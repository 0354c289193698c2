package io.riverbed.format.log;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Where a block's content bytes are: in a file (read lazily, on demand) or in memory. */
sealed interface BlockContent {

  long length();

  /** A stream positioned at the first content byte; the caller closes it. */
  DataInputStream open() throws IOException;

  String describe();

  record InFile(FileSystem fs, Path path, long offset, long length) implements BlockContent {
    @Override
    public DataInputStream open() throws IOException {
      FSDataInputStream in = fs.open(path);
      try {
        in.seek(offset);
        int buffer = (int) Math.max(1, Math.min(length, 1 << 16));
        return new DataInputStream(new BufferedInputStream(in, buffer));
      } catch (IOException | RuntimeException e) {
        in.close();
        throw e;
      }
    }

    @Override
    public String describe() {
      return path + " (content at offset " + offset + ", " + length + " bytes)";
    }
  }

  record InMemory(byte[] bytes) implements BlockContent {
    @Override
    public long length() {
      return bytes.length;
    }

    @Override
    public DataInputStream open() {
      return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    @Override
    public String describe() {
      return "in-memory content (" + bytes.length + " bytes)";
    }
  }
}
