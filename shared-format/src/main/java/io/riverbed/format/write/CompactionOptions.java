package io.riverbed.format.write;

import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.log.SliceLogScanner;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How compactions are planned and run, read from a map with Hudi's key names.
 *
 * <p>Selection (what {@link CompactionScheduler} puts in a plan): every file group whose latest
 * slice has log files, is not already in a pending compaction, and passes both thresholds below.
 * Both default to 0, i.e. every file group with logs. Riverbed never appends to an existing log
 * file, so each delta commit that touches a file group adds one log file to its slice: the log
 * file count is the number of delta commits since the slice's base.
 *
 * @param minLogFiles {@value #LOG_FILE_NUM_THRESHOLD}: a slice needs at least this many log files
 *     (Hudi's {@code LogFileNumBasedCompactionStrategy}; default 0)
 * @param minLogBytes {@value #LOG_FILE_SIZE_THRESHOLD}: a slice needs at least this many bytes of
 *     log files (Hudi's {@code LogFileSizeBasedCompactionStrategy}; default 0)
 * @param memoryBudgetBytes {@value #MAX_MEMORY}: bytes of merged log records kept in memory per
 *     file group before spilling to disk (default 1 GB)
 * @param spillDirectory {@value #SPILL_PATH}: local folder for spill files (default
 *     {@code java.io.tmpdir})
 * @param baseFileOptions how compacted base files are written ({@code hoodie.parquet.*} keys)
 */
public record CompactionOptions(
    int minLogFiles, long minLogBytes, long memoryBudgetBytes, Path spillDirectory, BaseFileOptions baseFileOptions) {

  public static final String LOG_FILE_NUM_THRESHOLD = "hoodie.compaction.logfile.num.threshold";
  public static final String LOG_FILE_SIZE_THRESHOLD = "hoodie.compaction.logfile.size.threshold";
  public static final String MAX_MEMORY = "hoodie.memory.compaction.max.size";
  public static final String SPILL_PATH = "hoodie.memory.spillable.map.path";

  /** Each option's key → {default, description}, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public CompactionOptions {
    if (minLogFiles < 0 || minLogBytes < 0 || memoryBudgetBytes < 0) {
      throw new IllegalArgumentException("compaction thresholds and memory budget must be >= 0, got "
          + minLogFiles + ", " + minLogBytes + ", " + memoryBudgetBytes);
    }
    Objects.requireNonNull(spillDirectory, "spillDirectory");
    Objects.requireNonNull(baseFileOptions, "baseFileOptions");
  }

  /** Hudi's defaults: compact every file group with logs. */
  public static CompactionOptions defaults() {
    return fromMap(Map.of());
  }

  public static CompactionOptions fromMap(Map<String, String> conf) {
    return new CompactionOptions(
        Integer.parseInt(conf.getOrDefault(LOG_FILE_NUM_THRESHOLD, "0").trim()),
        Long.parseLong(conf.getOrDefault(LOG_FILE_SIZE_THRESHOLD, "0").trim()),
        Long.parseLong(conf.getOrDefault(MAX_MEMORY, Long.toString(SliceLogScanner.DEFAULT_MEMORY_BUDGET)).trim()),
        Path.of(conf.getOrDefault(SPILL_PATH, System.getProperty("java.io.tmpdir")).trim()),
        BaseFileOptions.fromMap(conf));
  }

  public CompactionOptions withThresholds(int logFiles, long logBytes) {
    return new CompactionOptions(logFiles, logBytes, memoryBudgetBytes, spillDirectory, baseFileOptions);
  }

  public CompactionOptions withMemory(long budgetBytes, Path spillFolder) {
    return new CompactionOptions(minLogFiles, minLogBytes, budgetBytes, spillFolder, baseFileOptions);
  }

  public CompactionOptions withBaseFileOptions(BaseFileOptions options) {
    return new CompactionOptions(minLogFiles, minLogBytes, memoryBudgetBytes, spillDirectory, options);
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(LOG_FILE_NUM_THRESHOLD, new String[] {"0", "A file group is compacted only if its latest slice has at least "
        + "this many log files (one per delta commit that touched it); 0 = any slice with logs."});
    d.put(LOG_FILE_SIZE_THRESHOLD, new String[] {"0", "A file group is compacted only if its latest slice has at least "
        + "this many bytes of log files; 0 = any slice with logs."});
    d.put(MAX_MEMORY, new String[] {Long.toString(SliceLogScanner.DEFAULT_MEMORY_BUDGET),
        "Bytes of merged log records one compacted file group may hold in memory before spilling to disk."});
    d.put(SPILL_PATH, new String[] {"java.io.tmpdir", "Local folder the compaction's log merge spills to."});
    return Collections.unmodifiableMap(d);
  }
}
