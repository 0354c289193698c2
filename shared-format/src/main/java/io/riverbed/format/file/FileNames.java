package io.riverbed.format.file;

import io.riverbed.format.TableException;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Names of base files, log files and write tokens, and their parsing, as table version 6 has them. */
public final class FileNames {
  /** The partition marker every partition folder holds. */
  public static final String PARTITION_METADATA = ".hoodie_partition_metadata";
  public static final String BASE_EXTENSION = ".parquet";
  public static final String LOG_EXTENSION = "log";
  /** Token for files written outside a task (rollback command logs, roll-over). */
  public static final String UNKNOWN_WRITE_TOKEN = "1-0-1";
  public static final int FIRST_LOG_VERSION = 1;

  private static final Pattern LOG_FILE =
      Pattern.compile("^\\.(.+)_(.*)\\.(log|archive)\\.(\\d+)(_((\\d+)-(\\d+)-(\\d+))(.cdc)?)?$");

  private FileNames() {}

  /** A new file id: a bare UUID, as Hudi's Flink writer makes them (never contains {@code _}). */
  public static String newFileId() {
    return UUID.randomUUID().toString();
  }

  /** {@code <a>-<b>-<c>}: task index, parallelism (Flink) or stage, attempt. */
  public static String writeToken(int taskIndex, int stageOrParallelism, int attempt) {
    return taskIndex + "-" + stageOrParallelism + "-" + attempt;
  }

  public static String baseFileName(String fileId, String writeToken, String instantTime) {
    requireFileId(fileId);
    return fileId + "_" + writeToken + "_" + instantTime + BASE_EXTENSION;
  }

  public static String logFileName(String fileId, String baseInstant, int version, String writeToken) {
    requireFileId(fileId);
    return "." + fileId + "_" + baseInstant + "." + LOG_EXTENSION + "." + version + "_" + writeToken;
  }

  public static boolean isBaseFile(String name) {
    return name.endsWith(BASE_EXTENSION) && !name.startsWith(".") && name.indexOf('_') > 0;
  }

  public static boolean isLogFile(String name) {
    return parseLogFileName(name).filter(p -> p.extension().equals(LOG_EXTENSION) && !p.cdc()).isPresent();
  }

  /** The parts of a base file name: fileId before the first {@code _}, token, then instant up to the first dot. */
  public static Optional<BaseFileName> parseBaseFileName(String name) {
    if (!isBaseFile(name)) {
      return Optional.empty();
    }
    String[] parts = name.split("_", 3);
    if (parts.length < 3) {
      return Optional.empty();
    }
    int dot = parts[2].indexOf('.');
    String instant = dot < 0 ? parts[2] : parts[2].substring(0, dot);
    return Optional.of(new BaseFileName(parts[0], parts[1], instant));
  }

  public static Optional<LogFileName> parseLogFileName(String name) {
    Matcher m = LOG_FILE.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(new LogFileName(m.group(1), m.group(2), m.group(3), Integer.parseInt(m.group(4)),
        m.group(6), m.group(10) != null));
  }

  private static void requireFileId(String fileId) {
    if (fileId == null || fileId.isEmpty() || fileId.indexOf('_') >= 0) {
      throw new TableException("file id '" + fileId + "' is empty or contains '_'");
    }
  }

  /** Parsed parts of a base file name. */
  public record BaseFileName(String fileId, String writeToken, String instantTime) {}

  /** Parsed parts of a log file name; {@code writeToken} may be null on very old files. */
  public record LogFileName(String fileId, String baseInstant, String extension, int version, String writeToken, boolean cdc) {}
}
