package io.riverbed.bench;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Locale;
import java.util.Random;

/**
 * The record keys of the Flink write benchmark's generated input, one per event, the same for every
 * sink of a run (fixed seed). {@link #uniform()}: the first 1,000 and every even event a new key,
 * every other event an update of a uniformly chosen earlier key. {@link #zipf(long, double)}: every
 * event an upsert of a key drawn from a fixed key space with Zipf's law (key 0 the most frequent;
 * keys spread over the partitions, as key {@code % partitions} picks the partition).
 */
abstract sealed class InputKeys {
  private static final long SEED = 42;

  /** The key of event {@code i}; called once per event, in order. */
  abstract long next(long i);

  /** Distinct keys among the events so far. */
  abstract long distinct();

  /** A short description for the report. */
  abstract String describe();

  static InputKeys uniform() {
    return new Uniform();
  }

  /** Keys {@code 0..keySpace-1}, the key of rank {@code r} drawn with probability proportional to {@code 1/(r+1)^skew}. */
  static InputKeys zipf(long keySpace, double skew) {
    return new Zipf(keySpace, skew);
  }

  /** {@code uniform} or {@code zipf} (key space {@code events/2}, at least 1), as {@code bench.flink.keys} names them. */
  static InputKeys named(String name, long events, double skew) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "uniform" -> uniform();
      case "zipf" -> zipf(Math.max(1, events / 2), skew);
      default -> throw new IllegalArgumentException("bench.flink.keys: uniform or zipf, not " + name);
    };
  }

  private static final class Uniform extends InputKeys {
    private final Random random = new Random(SEED);
    private long keys;

    @Override
    long next(long i) {
      return i < 1000 || i % 2 == 0 ? keys++ : (long) (random.nextDouble() * keys);
    }

    @Override
    long distinct() {
      return keys;
    }

    @Override
    String describe() {
      return "uniform keys (the first 1,000 and every even line a new key, every other line an update of a uniformly "
          + "chosen earlier key)";
    }
  }

  private static final class Zipf extends InputKeys {
    private final Random random = new Random(SEED);
    private final double skew;
    private final double[] cumulative;
    private final BitSet seen;
    private long distinct;

    Zipf(long keySpace, double skew) {
      if (keySpace > Integer.MAX_VALUE - 8 || keySpace < 1 || !(skew > 0)) {
        throw new IllegalArgumentException("zipf keys: key space " + keySpace + ", skew " + skew);
      }
      this.skew = skew;
      cumulative = new double[(int) keySpace];
      double sum = 0;
      for (int r = 0; r < cumulative.length; r++) {
        sum += Math.pow(r + 1, -skew);
        cumulative[r] = sum;
      }
      seen = new BitSet(cumulative.length);
    }

    @Override
    long next(long i) {
      double u = random.nextDouble() * cumulative[cumulative.length - 1];
      int at = Arrays.binarySearch(cumulative, u);
      int key = Math.min(at >= 0 ? at : -at - 1, cumulative.length - 1);
      if (!seen.get(key)) {
        seen.set(key);
        distinct++;
      }
      return key;
    }

    @Override
    long distinct() {
      return distinct;
    }

    @Override
    String describe() {
      return String.format(Locale.ROOT, "zipf keys (every line an upsert of a key drawn from %,d keys, skew %.2f)",
          cumulative.length, skew);
    }
  }
}
