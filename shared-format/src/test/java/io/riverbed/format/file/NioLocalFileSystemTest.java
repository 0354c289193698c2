package io.riverbed.format.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nio local file system creates, lists and reports files exactly as Hadoop's default local file system. */
class NioLocalFileSystemTest {
  @TempDir
  java.nio.file.Path dir;

  private final Configuration conf = new Configuration();

  @Test
  void filesAndFoldersGetTheDefaultFileSystemsPermissionsOwnersAndGroups() throws Exception {
    FileSystem nio = NioLocalFileSystem.of(new Path(dir.toUri()), conf);
    FileSystem hadoop = FileSystem.newInstance(dir.toUri(), conf);
    assertThat(nio).isInstanceOf(NioLocalFileSystem.class);
    assertThat(hadoop).isInstanceOf(LocalFileSystem.class).isNotInstanceOf(NioLocalFileSystem.class);
    for (var fs : List.of(nio, hadoop)) {
      String name = fs == nio ? "nio" : "hadoop";
      Path folder = new Path(dir.toUri().toString(), name + "/a/b");
      assertThat(fs.mkdirs(folder)).isTrue();
      try (var out = fs.create(new Path(folder, "file"))) {
        out.write(new byte[] {1, 2, 3});
      }
      try (var out = fs.create(new Path(folder, "other"), FsPermission.createImmutable((short) 0640), true, 4096,
          (short) 1, 1 << 20, null)) {
        out.write(4);
      }
    }
    for (String file : List.of("a", "a/b", "a/b/file", "a/b/other", "a/b/.file.crc")) {
      assertThat(Files.getPosixFilePermissions(dir.resolve("nio/" + file))).as(file)
          .isEqualTo(Files.getPosixFilePermissions(dir.resolve("hadoop/" + file)));
    }
    assertThat(describe(nio, "nio")).isEqualTo(describe(hadoop, "hadoop"));
    nio.setPermission(new Path(dir.toUri().toString(), "nio/a/b/file"), FsPermission.createImmutable((short) 0604));
    assertThat(nio.getFileStatus(new Path(dir.toUri().toString(), "nio/a/b/file")).getPermission().toShort())
        .isEqualTo((short) 0604);
    hadoop.close();
  }

  /** Every status the listings and lookups give, with the fields that forked a shell in Hadoop's. */
  private List<String> describe(FileSystem fs, String root) throws Exception {
    Path base = new Path(dir.toUri().toString(), root);
    List<String> seen = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(base, true);
    while (files.hasNext()) {
      seen.add("listFiles " + line(files.next(), base));
    }
    for (FileStatus status : fs.listStatus(new Path(base, "a/b"))) {
      seen.add("listStatus " + line(status, base));
    }
    seen.add("getFileStatus " + line(fs.getFileStatus(new Path(base, "a")), base));
    seen.add("getFileStatus " + line(fs.getFileStatus(new Path(base, "a/b/other")), base));
    seen.sort(null);
    return seen;
  }

  private static String line(FileStatus s, Path base) {
    return s.getPath().toUri().getPath().substring(base.toUri().getPath().length()) + " " + s.getLen() + " "
        + s.isDirectory() + " " + s.getPermission() + " " + s.getOwner() + " " + s.getGroup();
  }

  /**
   * A configuration made on a Flink task thread holds the job's class loader, closed when the job
   * ends; the file system's own configuration (which Parquet's codec cache keeps) must not.
   */
  @Test
  void theFileSystemsConfigurationDoesNotHoldTheCallersClassLoader() throws Exception {
    ClassLoader jobLoader = new java.net.URLClassLoader(new java.net.URL[0], getClass().getClassLoader());
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    FileSystem fs;
    try {
      thread.setContextClassLoader(jobLoader);
      fs = NioLocalFileSystem.of(new Path(dir.toUri()), new Configuration());
    } finally {
      thread.setContextClassLoader(before);
    }
    assertThat(fs.getConf().getClassLoader()).isSameAs(NioLocalFileSystem.class.getClassLoader());
  }

  @Test
  void otherSchemesAndAConfiguredLocalImplementationAreLeftAlone() throws Exception {
    Configuration raw = new Configuration();
    raw.set("fs.file.impl", RawLocalFileSystem.class.getName());
    raw.setBoolean("fs.file.impl.disable.cache", true);
    assertThat(NioLocalFileSystem.of(new Path(dir.toUri()), raw)).isExactlyInstanceOf(RawLocalFileSystem.class);
    assertThat(NioLocalFileSystem.of(new Path(dir.toString()), conf)).as("a path without scheme on the default file system")
        .isInstanceOf(NioLocalFileSystem.class);
  }
}
