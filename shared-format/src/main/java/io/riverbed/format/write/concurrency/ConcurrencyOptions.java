package io.riverbed.format.write.concurrency;

import io.riverbed.format.options.DurationOption;
import io.riverbed.format.options.IntegerOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The options of concurrent writers, with Hudi 0.15's key names and defaults.
 *
 * @param mode {@value #MODE}
 * @param lockProvider {@value #LOCK_PROVIDER}: Hudi's file-system lock provider (the only one
 *     Riverbed implements), or a class implementing {@link TableLockFactory}
 * @param lockPath {@value #LOCK_PATH}: the folder of the lock file; null = the table's {@code .hoodie}
 * @param lockExpireMinutes {@value #LOCK_EXPIRE}: a lock file older than this is taken as abandoned
 *     and deleted; 0 = never
 * @param lockWait {@value #LOCK_WAIT}: how long a writer tries to take the lock before its commit fails
 * @param lockRetryWait {@value #LOCK_RETRY_WAIT}: the pause between two tries
 * @param heartbeatInterval {@value #HEARTBEAT_INTERVAL}: how often a writer renews the heartbeat of its
 *     pending instants
 * @param heartbeatTolerableMisses {@value #HEARTBEAT_MISSES}: renewals an instant may miss before
 *     another writer takes it as failed and rolls it back
 * @param failedWritesPolicy {@value #FAILED_WRITES_POLICY}: EAGER (roll back every pending write at
 *     start; single writer) or LAZY (only those whose heartbeat expired; required with several writers)
 * @param streamingWait {@value #STREAMING_WAIT}: how long a batch writer's commit waits for the
 *     streaming writer's pending instants to complete before it fails
 */
public record ConcurrencyOptions(
    ConcurrencyMode mode,
    String lockProvider,
    String lockPath,
    int lockExpireMinutes,
    Duration lockWait,
    Duration lockRetryWait,
    Duration heartbeatInterval,
    int heartbeatTolerableMisses,
    FailedWritesPolicy failedWritesPolicy,
    Duration streamingWait) {

  public static final String MODE = "hoodie.write.concurrency.mode";
  public static final String LOCK_PROVIDER = "hoodie.write.lock.provider";
  public static final String LOCK_PATH = "hoodie.write.lock.filesystem.path";
  public static final String LOCK_EXPIRE = "hoodie.write.lock.filesystem.expire";
  public static final String LOCK_WAIT = "hoodie.write.lock.wait_time_ms";
  public static final String LOCK_RETRY_WAIT = "hoodie.write.lock.wait_time_ms_between_retry";
  public static final String HEARTBEAT_INTERVAL = "hoodie.client.heartbeat.interval_in_ms";
  public static final String HEARTBEAT_MISSES = "hoodie.client.heartbeat.tolerable.misses";
  public static final String FAILED_WRITES_POLICY = "hoodie.clean.failed.writes.policy";
  /** Riverbed's own: Hudi has no rule that batch commits yield to a streaming writer. */
  public static final String STREAMING_WAIT = "riverbed.write.streaming.wait";

  /** Hudi's file-system lock provider; Riverbed's {@link FileSystemTableLock} takes the same lock file. */
  public static final String FILE_SYSTEM_LOCK_PROVIDER =
      "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";

  /** What happens to the pending writes a writer finds when it starts. */
  public enum FailedWritesPolicy {
    /** Every pending write is rolled back: only right when no other writer can be live. */
    EAGER,
    /** Only pending writes whose heartbeat expired (or that this writer's own earlier run left) are rolled back. */
    LAZY
  }

  /** Each option's key, default and description, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public ConcurrencyOptions {
    if (lockExpireMinutes < 0 || heartbeatTolerableMisses < 1 || heartbeatInterval.toMillis() < 1000) {
      throw new IllegalArgumentException("need " + LOCK_EXPIRE + " >= 0, " + HEARTBEAT_MISSES + " >= 1 and "
          + HEARTBEAT_INTERVAL + " >= 1000, got " + lockExpireMinutes + ", " + heartbeatTolerableMisses + ", "
          + heartbeatInterval.toMillis());
    }
    if (mode == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL && failedWritesPolicy == FailedWritesPolicy.EAGER) {
      throw new IllegalArgumentException(MODE + "=optimistic_concurrency_control needs " + FAILED_WRITES_POLICY
          + "=LAZY: an eager rollback at start would roll back another live writer's pending instant");
    }
  }

  public static ConcurrencyOptions defaults() {
    return fromMap(Map.of());
  }

  public static ConcurrencyOptions fromMap(Map<String, String> conf) {
    ConcurrencyMode mode = ConcurrencyMode.of(conf.getOrDefault(MODE, "single_writer"));
    String policy = conf.get(FAILED_WRITES_POLICY);
    FailedWritesPolicy failed = policy == null || policy.isBlank()
        ? (mode == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL ? FailedWritesPolicy.LAZY : FailedWritesPolicy.EAGER)
        : policyOf(policy);
    String path = conf.get(LOCK_PATH);
    return new ConcurrencyOptions(mode,
        conf.getOrDefault(LOCK_PROVIDER, FILE_SYSTEM_LOCK_PROVIDER).trim(),
        path == null || path.isBlank() ? null : path.trim(),
        IntegerOption.read(conf, LOCK_EXPIRE, null, 0),
        Duration.ofMillis(IntegerOption.read(conf, LOCK_WAIT, null, 60_000)),
        Duration.ofMillis(IntegerOption.read(conf, LOCK_RETRY_WAIT, null, 1_000)),
        Duration.ofMillis(IntegerOption.read(conf, HEARTBEAT_INTERVAL, null, 60_000)),
        IntegerOption.read(conf, HEARTBEAT_MISSES, null, 2),
        failed,
        DurationOption.read(conf, STREAMING_WAIT, Duration.ofMinutes(10)));
  }

  /** True with several writers ({@link ConcurrencyMode#OPTIMISTIC_CONCURRENCY_CONTROL}). */
  public boolean multiWriter() {
    return mode == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL;
  }

  /** How long a pending instant's heartbeat may go unrenewed before the instant counts as failed. */
  public Duration heartbeatExpiry() {
    return heartbeatInterval.multipliedBy(heartbeatTolerableMisses);
  }

  private static FailedWritesPolicy policyOf(String value) {
    try {
      return FailedWritesPolicy.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(FAILED_WRITES_POLICY + " must be EAGER or LAZY, got '" + value + "'", e);
    }
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(MODE, new String[] {"single_writer", "single_writer (one writer at a time, kept apart by the writer "
        + "lease) or optimistic_concurrency_control (several writers: every writer of the table must set it; "
        + "each commit takes the table lock and fails on a file-group conflict). See CONCURRENT_WRITERS.md."});
    d.put(LOCK_PROVIDER, new String[] {FILE_SYSTEM_LOCK_PROVIDER, "The lock taken around each commit's conflict "
        + "check and commit point with optimistic_concurrency_control: Hudi's file-system lock (Riverbed takes "
        + "the same lock file), or a class implementing io.riverbed.format.write.concurrency.TableLockFactory."});
    d.put(LOCK_PATH, new String[] {"", "Folder of the file-system lock's file `lock`; empty = the table's .hoodie "
        + "folder. Every writer of the table must use the same one."});
    d.put(LOCK_EXPIRE, new String[] {"0", "Minutes after which a lock file is taken as left by a crashed writer "
        + "and deleted; 0 = never (delete it by hand)."});
    d.put(LOCK_WAIT, new String[] {"60000", "Milliseconds a commit tries to take the lock before it fails."});
    d.put(LOCK_RETRY_WAIT, new String[] {"1000", "Milliseconds between two tries to take the lock."});
    d.put(HEARTBEAT_INTERVAL, new String[] {"60000", "Milliseconds between renewals of a pending instant's "
        + "heartbeat (.hoodie/.heartbeat/<instant>)."});
    d.put(HEARTBEAT_MISSES, new String[] {"2", "Renewals a pending instant may miss before another writer "
        + "takes it as failed and rolls it back."});
    d.put(FAILED_WRITES_POLICY, new String[] {"", "EAGER (roll back every pending write at start) or LAZY (only "
        + "those whose heartbeat expired); empty = EAGER for single_writer, LAZY for "
        + "optimistic_concurrency_control, which refuses EAGER."});
    d.put(STREAMING_WAIT, new String[] {"10 min", "How long a batch (Spark) commit waits, with "
        + "optimistic_concurrency_control, while the streaming (Flink) writer has an instant pending, before it "
        + "fails: a batch commit never lands while a streaming commit is in flight, so the streaming commit never "
        + "loses a conflict."});
    return Map.copyOf(d);
  }
}
