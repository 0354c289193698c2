package io.riverbed.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Measurements of one thing over several rounds: the median, the range and the spread
 * ({@code (max - min) / median}), which is how noise is reported on this shared 2-core machine.
 */
public final class Samples {
  private final String name;
  private final List<Double> values = new ArrayList<>();

  public Samples(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  public void add(double value) {
    values.add(value);
  }

  public int size() {
    return values.size();
  }

  public List<Double> values() {
    return List.copyOf(values);
  }

  public double median() {
    if (values.isEmpty()) {
      throw new IllegalStateException("no samples of " + name);
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }

  public double min() {
    return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
  }

  public double max() {
    return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }

  /** (max - min) / median, e.g. 0.12 for a range 12% of the median wide. */
  public double spread() {
    double m = median();
    return m == 0 ? 0 : (max() - min()) / m;
  }

  /** "1234 (1200–1300, ±4%)"-style summary with the given unit format, e.g. "%.0f". */
  public String summary(String format) {
    return String.format(Locale.ROOT, format + " (" + format + "–" + format + ", spread %.0f%%)",
        median(), min(), max(), spread() * 100);
  }

  /** Pairwise ratios a[i] / b[i] of two series measured in the same rounds. */
  public static Samples ratios(String name, Samples a, Samples b) {
    if (a.size() != b.size()) {
      throw new IllegalArgumentException(a.name + " has " + a.size() + " samples, " + b.name + " " + b.size());
    }
    Samples out = new Samples(name);
    for (int i = 0; i < a.size(); i++) {
      out.add(a.values.get(i) / b.values.get(i));
    }
    return out;
  }
}
