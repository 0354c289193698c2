package io.riverbed.format.query;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * How splits are read: the memory the merge of one slice's logs may hold before it spills, and
 * the local folder it spills to. Option names are Hudi's.
 */
public record ReadSettings(long maxMemoryForMergeBytes, Path spillDirectory) {
  public static final String MAX_MEMORY = "hoodie.memory.merge.max.size";
  public static final String SPILL_PATH = "hoodie.memory.spillable.map.path";
  /** Hudi's default merge memory: 1 GB. */
  public static final long DEFAULT_MAX_MEMORY = 1024L * 1024 * 1024;

  public static ReadSettings defaults() {
    return new ReadSettings(DEFAULT_MAX_MEMORY, Path.of(System.getProperty("java.io.tmpdir")));
  }

  public static ReadSettings fromOptions(Map<String, String> options) {
    long memory = Optional.ofNullable(options.get(MAX_MEMORY)).map(String::trim).map(Long::parseLong).orElse(DEFAULT_MAX_MEMORY);
    Path spill = Optional.ofNullable(options.get(SPILL_PATH)).map(Path::of).orElse(Path.of(System.getProperty("java.io.tmpdir")));
    return new ReadSettings(memory, spill);
  }
}
