package io.riverbed.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File helpers shared by the benchmarks (no engine classes, so every benchmark JVM can load it). */
final class BenchFiles {
  private BenchFiles() {}

  /** Deletes {@code p} and everything under it, if it exists. */
  static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(p)) {
      for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
