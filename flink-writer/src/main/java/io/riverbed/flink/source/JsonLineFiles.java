package io.riverbed.flink.source;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/** Reads the lines of the input files on the client, to sample them for schema inference. */
public final class JsonLineFiles {
  private JsonLineFiles() {}

  /**
   * Calls {@code reader} with the numbered lines of {@code path} (a file, or the files of a
   * directory in name order, skipping names starting with {@code .} or {@code _}), read lazily;
   * closes what it opened.
   */
  public static <R> R withLines(String path, Function<java.util.Iterator<SourceLine>, R> reader) {
    List<Path> files = files(path);
    try (LineIterator it = new LineIterator(files)) {
      return reader.apply(it);
    }
  }

  static List<Path> files(String path) {
    Path p = new Path(path);
    try {
      FileSystem fs = p.getFileSystem();
      if (!fs.exists(p)) {
        throw new IllegalArgumentException("input " + path + " does not exist");
      }
      FileStatus status = fs.getFileStatus(p);
      if (!status.isDir()) {
        return List.of(p);
      }
      List<Path> out = new ArrayList<>();
      FileStatus[] children = fs.listStatus(p);
      Arrays.sort(children, Comparator.comparing(s -> s.getPath().getName()));
      for (FileStatus s : children) {
        String name = s.getPath().getName();
        if (!s.isDir() && !name.startsWith(".") && !name.startsWith("_")) {
          out.add(s.getPath());
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list input " + path, e);
    }
  }

  private static final class LineIterator implements java.util.Iterator<SourceLine>, AutoCloseable {
    private final List<Path> files;
    private int fileIndex = -1;
    private BufferedReader reader;
    private long lineNumber;
    private SourceLine next;

    LineIterator(List<Path> files) {
      this.files = files;
    }

    @Override
    public boolean hasNext() {
      try {
        while (next == null) {
          if (reader == null) {
            if (++fileIndex >= files.size()) {
              return false;
            }
            Path f = files.get(fileIndex);
            reader = new BufferedReader(new InputStreamReader(f.getFileSystem().open(f), StandardCharsets.UTF_8));
            lineNumber = 0;
          }
          String text = reader.readLine();
          if (text == null) {
            reader.close();
            reader = null;
          } else {
            next = SourceLine.fileLine(files.get(fileIndex).toString(), ++lineNumber, text);
          }
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + files.get(fileIndex), e);
      }
    }

    @Override
    public SourceLine next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      SourceLine line = next;
      next = null;
      return line;
    }

    @Override
    public void close() {
      if (reader != null) {
        try {
          reader.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
