package io.riverbed.spark;

import io.riverbed.format.TableException;
import io.riverbed.format.record.KeyGeneratorType;
import io.riverbed.format.record.PartitionPaths;
import io.riverbed.format.table.TableConfig;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Decides from a partition path alone whether a file slice can hold rows passing a filter on
 * partition columns. Only for the key generators that write the column's value itself into the
 * path (simple, complex); comparisons are made on strings, or on numbers for numeric values.
 * Anything it cannot decide keeps the slice: a filter is evaluated three-valued, and only a
 * definite "false" prunes.
 */
public final class PartitionPruner {
  private final List<String> fields;
  private final boolean hiveStyle;
  private final boolean urlEncoded;
  private final boolean enabled;

  private PartitionPruner(List<String> fields, boolean hiveStyle, boolean urlEncoded, boolean enabled) {
    this.fields = fields;
    this.hiveStyle = hiveStyle;
    this.urlEncoded = urlEncoded;
    this.enabled = enabled;
  }

  public static PartitionPruner of(TableConfig config) {
    boolean valueInPath = config.keyGeneratorClass().map(PartitionPruner::writesValues).orElse(true);
    List<String> fields = config.partitionFields();
    return new PartitionPruner(fields, config.hiveStylePartitioning(), config.urlEncodePartitioning(),
        valueInPath && !fields.isEmpty() && fields.stream().noneMatch(f -> f.contains(".")));
  }

  private static boolean writesValues(String keyGeneratorClass) {
    try {
      return KeyGeneratorType.fromName(keyGeneratorClass) != KeyGeneratorType.NON_PARTITION;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** True if {@code filter} only refers to partition columns (and this table's paths can be read back). */
  public boolean canPrune(Filter filter) {
    return enabled && filter.references().length > 0 && Arrays.stream(filter.references()).allMatch(fields::contains);
  }

  /** False only if no row of the partition can pass every one of {@code filters}. */
  public boolean mayMatch(String partitionPath, List<Filter> filters) {
    if (!enabled || filters.isEmpty()) {
      return true;
    }
    Map<String, String> values;
    try {
      values = PartitionPaths.parse(partitionPath, fields, hiveStyle, urlEncoded);
    } catch (TableException e) {
      return true;
    }
    for (Filter f : filters) {
      if (eval(f, values).equals(Optional.of(false))) {
        return false;
      }
    }
    return true;
  }

  /** Three-valued: empty when unknown (or SQL null). */
  static Optional<Boolean> eval(Filter f, Map<String, String> values) {
    if (f instanceof And a) {
      Optional<Boolean> l = eval(a.left(), values);
      Optional<Boolean> r = eval(a.right(), values);
      if (l.equals(Optional.of(false)) || r.equals(Optional.of(false))) {
        return Optional.of(false);
      }
      return l.isPresent() && r.isPresent() ? Optional.of(true) : Optional.empty();
    }
    if (f instanceof Or o) {
      Optional<Boolean> l = eval(o.left(), values);
      Optional<Boolean> r = eval(o.right(), values);
      if (l.equals(Optional.of(true)) || r.equals(Optional.of(true))) {
        return Optional.of(true);
      }
      return l.isPresent() && r.isPresent() ? Optional.of(false) : Optional.empty();
    }
    if (f instanceof Not n) {
      return eval(n.child(), values).map(b -> !b);
    }
    if (f instanceof IsNull n) {
      return known(values, n.attribute()) ? Optional.of(values.get(n.attribute()) == null) : Optional.empty();
    }
    if (f instanceof IsNotNull n) {
      return known(values, n.attribute()) ? Optional.of(values.get(n.attribute()) != null) : Optional.empty();
    }
    if (f instanceof EqualTo e) {
      return compare(values, e.attribute(), e.value()).map(c -> c == 0);
    }
    if (f instanceof EqualNullSafe e) {
      if (e.value() == null) {
        return known(values, e.attribute()) ? Optional.of(values.get(e.attribute()) == null) : Optional.empty();
      }
      return compare(values, e.attribute(), e.value()).map(c -> c == 0);
    }
    if (f instanceof GreaterThan g) {
      return compare(values, g.attribute(), g.value()).map(c -> c > 0);
    }
    if (f instanceof GreaterThanOrEqual g) {
      return compare(values, g.attribute(), g.value()).map(c -> c >= 0);
    }
    if (f instanceof LessThan l) {
      return compare(values, l.attribute(), l.value()).map(c -> c < 0);
    }
    if (f instanceof LessThanOrEqual l) {
      return compare(values, l.attribute(), l.value()).map(c -> c <= 0);
    }
    if (f instanceof In in) {
      boolean unknown = false;
      for (Object v : in.values()) {
        Optional<Integer> c = compare(values, in.attribute(), v);
        if (c.equals(Optional.of(0))) {
          return Optional.of(true);
        }
        unknown |= c.isEmpty();
      }
      return unknown ? Optional.empty() : Optional.of(false);
    }
    if (f instanceof StringStartsWith s) {
      return string(values, s.attribute()).map(v -> v.startsWith(s.value()));
    }
    if (f instanceof StringEndsWith s) {
      return string(values, s.attribute()).map(v -> v.endsWith(s.value()));
    }
    if (f instanceof StringContains s) {
      return string(values, s.attribute()).map(v -> v.contains(s.value()));
    }
    return Optional.empty();
  }

  private static boolean known(Map<String, String> values, String column) {
    return values.containsKey(column);
  }

  private static Optional<String> string(Map<String, String> values, String column) {
    return Optional.ofNullable(values.get(column));
  }

  /** The partition value compared with a filter literal; empty when null, absent or not comparable. */
  private static Optional<Integer> compare(Map<String, String> values, String column, Object literal) {
    String value = values.get(column);
    if (value == null || literal == null) {
      return Optional.empty();
    }
    if (literal instanceof String s) {
      return Optional.of(Integer.signum(UTF8String.fromString(value).compareTo(UTF8String.fromString(s))));
    }
    if (literal instanceof Integer || literal instanceof Long || literal instanceof Short || literal instanceof Byte) {
      try {
        return Optional.of(Integer.signum(Long.compare(Long.parseLong(value), ((Number) literal).longValue())));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }
}
