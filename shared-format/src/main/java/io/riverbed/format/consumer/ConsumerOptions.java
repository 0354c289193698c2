package io.riverbed.format.consumer;

import io.riverbed.format.options.DurationOption;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How long a registered consumer holds cleaning and archival back, read from a map: the cleaner's
 * and the archiver's options carry it ({@code CleanOptions}, {@code ArchiveOptions}), read from
 * the same map as their other keys.
 *
 * @param expiration {@value #EXPIRATION}: a consumer whose position was not recorded for this long
 *     no longer pins anything (its file stays, and its next read can renew it)
 */
public record ConsumerOptions(Duration expiration) {
  public static final String EXPIRATION = "riverbed.consumer.expiration";
  static final Duration DEFAULT_EXPIRATION = Duration.ofDays(7);

  /** Each option's key → {default, description}, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public ConsumerOptions {
    Objects.requireNonNull(expiration, "expiration");
    if (expiration.isZero() || expiration.isNegative()) {
      throw new IllegalArgumentException(EXPIRATION + " must be positive, got " + expiration);
    }
  }

  /** A consumer expires after 7 days without a recorded position. */
  public static ConsumerOptions defaults() {
    return new ConsumerOptions(DEFAULT_EXPIRATION);
  }

  public static ConsumerOptions fromMap(Map<String, String> conf) {
    return new ConsumerOptions(DurationOption.read(conf, EXPIRATION, DEFAULT_EXPIRATION));
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(EXPIRATION, new String[] {DurationOption.format(DEFAULT_EXPIRATION), "Cleaning and archival keep what "
        + "the next read of every registered consumer (an incremental read with consumer-id) needs, until its "
        + "position was not recorded for this long ('7 d', '12 h', '30 min', or ISO-8601 such as P7D). The "
        + "consumer stays listed, expired. Apache Paimon's consumer.expiration-time has no default (consumers never "
        + "expire)."});
    return Collections.unmodifiableMap(d);
  }
}
