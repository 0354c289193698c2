package io.riverbed.flink.source;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.ArrayResultIterator;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * Reads a text file as {@link SourceLine}s carrying the file and the 1-based line number, so a
 * bad record can be named. Files are not split. The reader position is the count of lines
 * consumed, so a restored reader skips exactly the lines emitted before the checkpoint and keeps
 * numbering lines as the file does.
 */
public final class JsonLinesFormat implements BulkFormat<SourceLine, FileSourceSplit> {
  private static final long serialVersionUID = 1L;
  private static final int BATCH = 256;

  @Override
  public Reader<SourceLine> createReader(Configuration config, FileSourceSplit split) throws IOException {
    return new LineReader(split, 0);
  }

  @Override
  public Reader<SourceLine> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
    long consumed = split.getReaderPosition().map(CheckpointedPosition::getRecordsAfterOffset).orElse(0L);
    return new LineReader(split, consumed);
  }

  @Override
  public boolean isSplittable() {
    return false;
  }

  @Override
  public TypeInformation<SourceLine> getProducedType() {
    return TypeInformation.of(SourceLine.class);
  }

  private static final class LineReader implements Reader<SourceLine> {
    private final String file;
    private final FSDataInputStream stream;
    private final BufferedReader reader;
    private long linesConsumed;

    LineReader(FileSourceSplit split, long skip) throws IOException {
      this.file = split.path().toString();
      this.stream = split.path().getFileSystem().open(split.path());
      this.reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
      for (long i = 0; i < skip; i++) {
        if (reader.readLine() == null) {
          close();
          throw new IOException("cannot restore reading " + file + " at line " + (skip + 1)
              + ": the file has only " + i + " lines now; was it changed?");
        }
      }
      this.linesConsumed = skip;
    }

    @Override
    public RecordIterator<SourceLine> readBatch() throws IOException {
      SourceLine[] batch = new SourceLine[BATCH];
      long first = linesConsumed;
      int n = 0;
      String text;
      while (n < BATCH && (text = reader.readLine()) != null) {
        linesConsumed++;
        batch[n++] = SourceLine.fileLine(file, linesConsumed, text);
      }
      if (n == 0) {
        return null;
      }
      ArrayResultIterator<SourceLine> it = new ArrayResultIterator<>();
      it.set(batch, n, CheckpointedPosition.NO_OFFSET, first);
      return it;
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }
}
