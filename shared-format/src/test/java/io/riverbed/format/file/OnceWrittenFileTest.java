package io.riverbed.format.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OnceWrittenFileTest {
  @TempDir
  java.nio.file.Path dir;

  /**
   * A local file system that calls itself s3a and, like s3a, refuses a no-overwrite create of an
   * object that exists; a second writer's object appears between our exists() and our create().
   */
  static final class RacingObjectStore extends RawLocalFileSystem {
    @Override
    public URI getUri() {
      return URI.create("s3a://bucket/");
    }

    @Override
    protected void checkPath(Path path) {
      // local paths under the s3a name
    }

    @Override
    public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication, long blockSize,
        Progressable progress) throws IOException {
      try (var other = super.create(f, true, bufferSize, replication, blockSize, progress)) {
        other.write("other writer".getBytes(StandardCharsets.UTF_8));
      }
      if (!overwrite) {
        throw new FileAlreadyExistsException(f + " already exists");
      }
      return super.create(f, overwrite, bufferSize, replication, blockSize, progress);
    }
  }

  @Test
  void objectStoreCreateLosingARaceReportsExistingAndKeepsTheWinnersContent() throws IOException {
    var fs = new RacingObjectStore();
    fs.initialize(URI.create("file:///"), new Configuration());
    var target = new Path(dir.resolve(".hoodie_partition_metadata").toUri());

    boolean created = OnceWrittenFile.create(fs, target, "mine".getBytes(StandardCharsets.UTF_8), new Path(dir.toUri()));

    assertThat(created).isFalse();
    assertThat(Files.readString(dir.resolve(".hoodie_partition_metadata"))).isEqualTo("other writer");
  }
}
