package io.riverbed.bench;

import java.util.List;
import java.util.UUID;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

/**
 * The deterministic event stream of {@link FlinkIndexScaleBenchmark}, a pure function of the event
 * number {@code e} (so the generator needs no input file and the expected table can be computed
 * again after the run):
 *
 * <ul>
 *   <li><b>growth</b>, events {@code [0, 5N/4)}: in every block of 5 events, 4 inserts of the next
 *       new keys (keys {@code 0..N-1} in order) and 1 update of a uniformly chosen key inserted at
 *       least {@value #UPDATE_LAG} keys earlier (of any earlier key while fewer exist);</li>
 *   <li><b>hot updates</b>, then: one paced phase per entry of {@code hotRates}, {@code rate}
 *       events/s for {@code hotSeconds} each, updating uniformly chosen keys of a hot set of
 *       {@code hotKeys} keys spread over the whole key space (every {@code N / hotKeys}-th key).</li>
 * </ul>
 *
 * Event {@code e} carries ordering value {@code ts = TS0 + e}, so a key's value in the table at the
 * end is the one of the last event that touched it, whatever order the two source subtasks
 * interleave in. A key's uuid encodes it ({@code new UUID(mix(key), key)}), so a reader gets the key
 * back from the record key.
 */
final class ScaleStream implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  static final long UPDATE_LAG = 20_000;
  static final String[] CURRENCIES = {"USD", "EUR", "INR", "BRL"};

  final long keys;
  final long growthEvents;
  final long hotKeys;
  final int[] hotRates;
  final int hotSeconds;

  ScaleStream(long keys, long hotKeys, List<Integer> hotRates, int hotSeconds) {
    if (keys % 8 != 0 || keys < 8) {
      throw new IllegalArgumentException("the key count must be a positive multiple of 8: " + keys);
    }
    this.keys = keys;
    this.growthEvents = keys / 4 * 5;
    this.hotKeys = Math.min(hotKeys, keys);
    this.hotRates = hotRates.stream().mapToInt(r -> r - r % 2).toArray();
    this.hotSeconds = hotSeconds;
  }

  /** Events of hot phase {@code i} (even, so that the two source subtasks get as many). */
  long hotEvents(int phase) {
    return (long) hotRates[phase] * hotSeconds;
  }

  /** The first event of hot phase {@code i}; {@code hotPhaseStart(hotRates.length)} is the event count. */
  long hotPhaseStart(int phase) {
    long start = growthEvents;
    for (int i = 0; i < phase; i++) {
      start += hotEvents(i);
    }
    return start;
  }

  long events() {
    return hotPhaseStart(hotRates.length);
  }

  /** The hot phase of event {@code e}, or -1 during growth. */
  int phaseOf(long e) {
    if (e < growthEvents) {
      return -1;
    }
    for (int i = 0; i < hotRates.length; i++) {
      if (e < hotPhaseStart(i + 1)) {
        return i;
      }
    }
    throw new IllegalArgumentException("event " + e + " is past the stream's " + events());
  }

  /** Whether event {@code e} inserts a new key. */
  boolean isInsert(long e) {
    return e < growthEvents && e % 5 != 4;
  }

  /** The key event {@code e} writes. */
  long keyOf(long e) {
    if (e < growthEvents) {
      long block = e / 5;
      long r = e % 5;
      if (r < 4) {
        return block * 4 + r;
      }
      long inserted = block * 4 + 4;
      long window = inserted > UPDATE_LAG ? inserted - UPDATE_LAG : inserted;
      return Long.remainderUnsigned(mix(e), window);
    }
    return Long.remainderUnsigned(mix(e), hotKeys) * (keys / hotKeys);
  }

  /** The uuid (record key) of {@code key}. */
  static String uuid(long key) {
    return new UUID(mix(key ^ 0x5DEECE66DL), key).toString();
  }

  /** The key a uuid made by {@link #uuid} stands for. */
  static long keyOfUuid(String uuid) {
    return UUID.fromString(uuid).getLeastSignificantBits();
  }

  /** The row event {@code e} writes, in the trips schema's field order. */
  GenericRowData row(long e) {
    long key = keyOf(e);
    Object[] v = values(key, e);
    GenericRowData row = new GenericRowData(v.length);
    for (int i = 0; i < v.length; i++) {
      row.setField(i, v[i] instanceof String s ? StringData.fromString(s) : v[i]);
    }
    return row;
  }

  /** The field values of {@code key} as event {@code e} writes them (strings as {@link String}). */
  static Object[] values(long key, long e) {
    int p = (int) (key % FlinkWriteBenchmark.PARTITIONS);
    long h = mix(key * 31 + e);
    return new Object[] {
        uuid(key),
        FlinkWriteBenchmark.TS0 + e,
        "rider-" + (key % 10_000),
        "driver-" + (e % 2_000),
        ((h & 0xFFFF) % 180_000) / 1000.0 - 90,
        (((h >>> 16) & 0xFFFFF) % 360_000) / 1000.0 - 180,
        (((h >>> 20) & 0xFFFF) % 180_000) / 1000.0 - 90,
        (((h >>> 36) & 0xFFFFF) % 360_000) / 1000.0 - 180,
        ((h >>> 8) & 0x3FFF) % 10_000 / 100.0,
        ((h >>> 24) & 0x7FF) % 2_000 / 100.0,
        (int) (((h >>> 40) & 0xFFF) % 3600),
        CURRENCIES[(int) (key % 4)],
        FlinkWriteBenchmark.REGIONS[p / 12],
        "country_" + (p / 4) % 3,
        "city_" + p % 4};
  }

  /** The event number of every key's last write: what the table must hold for it at the end. */
  int[] lastEvents() {
    if (events() > Integer.MAX_VALUE) {
      throw new IllegalStateException("more events than an int holds: " + events());
    }
    int[] last = new int[Math.toIntExact(keys)];
    for (long e = 0, n = events(); e < n; e++) {
      last[(int) keyOf(e)] = (int) e;
    }
    return last;
  }

  /** SplitMix64's finalizer: a well-mixed 64-bit function of {@code x}. */
  static long mix(long x) {
    long z = x + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
