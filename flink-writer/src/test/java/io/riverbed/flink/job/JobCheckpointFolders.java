package io.riverbed.flink.job;

import java.nio.file.Path;
import java.util.UUID;

/**
 * Where job tests keep checkpoints: outside their {@code @TempDir}. Flink discards a finished job's
 * checkpoints on an I/O thread of its own after the job returned, so JUnit's clean-up of a
 * temporary folder holding them can meet a folder that vanishes while it walks it, and fail the
 * test (it did, under load, with the default location inside the table's {@code .hoodie/.aux}).
 */
public final class JobCheckpointFolders {
  private JobCheckpointFolders() {}

  /** A new folder for the checkpoints of one test's jobs, below the JVM's temporary folder. */
  public static Path create(String test) {
    return Path.of(System.getProperty("java.io.tmpdir"), "riverbed-job-checkpoints", test + "-" + UUID.randomUUID());
  }
}
