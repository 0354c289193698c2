package io.riverbed.spark;

import io.riverbed.format.query.ColumnPredicate;
import io.riverbed.format.query.ColumnPredicate.Operator;
import io.riverbed.format.query.ParquetColumnPredicates;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
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
import org.apache.spark.sql.types.StructType;

/**
 * Spark filters as a Parquet {@link FilterPredicate} for one base file: translated to the core's
 * {@link ColumnPredicate}, then built against that file's own Parquet schema by
 * {@link ParquetColumnPredicates} (a column whose stored type differs, by schema evolution, is
 * simply left out). A predicate never drops a row the Spark filter would keep; Spark evaluates
 * every filter again on the rows anyway.
 */
public final class ParquetPredicates {
  private static final int MAX_IN_VALUES = 32;

  private ParquetPredicates() {}

  /** Whether the filter has a chance to become a Parquet predicate (top-level columns only). */
  public static boolean mayConvert(Filter filter, StructType schema) {
    for (String ref : filter.references()) {
      if (!schema.getFieldIndex(ref).isDefined()) {
        return false;
      }
    }
    return filter.references().length > 0;
  }

  /** The conjunction of the convertible filters, for a file with {@code fileSchema}. */
  public static Optional<FilterPredicate> of(Filter[] filters, MessageType fileSchema) {
    List<ColumnPredicate> parts = new ArrayList<>();
    for (Filter f : filters) {
      translate(f, false).ifPresent(parts::add);
    }
    return parts.isEmpty() ? Optional.empty() : ParquetColumnPredicates.forFile(ColumnPredicate.allOf(parts), fileSchema);
  }

  /**
   * {@code strict}: the result must be equivalent to the filter (needed under a negation);
   * otherwise it may be weaker (an AND may keep only its translatable side).
   */
  static Optional<ColumnPredicate> translate(Filter f, boolean strict) {
    if (f instanceof And a) {
      Optional<ColumnPredicate> l = translate(a.left(), strict);
      Optional<ColumnPredicate> r = translate(a.right(), strict);
      if (l.isPresent() && r.isPresent()) {
        return Optional.of(new ColumnPredicate.And(l.get(), r.get()));
      }
      return strict ? Optional.empty() : l.isPresent() ? l : r;
    }
    if (f instanceof Or o) {
      Optional<ColumnPredicate> l = translate(o.left(), strict);
      Optional<ColumnPredicate> r = translate(o.right(), strict);
      return l.isPresent() && r.isPresent() ? Optional.of(new ColumnPredicate.Or(l.get(), r.get())) : Optional.empty();
    }
    if (f instanceof Not n) {
      return translate(n.child(), true).map(ColumnPredicate.Not::new);
    }
    if (f instanceof IsNull n) {
      return Optional.of(new ColumnPredicate.IsNull(n.attribute()));
    }
    if (f instanceof IsNotNull n) {
      return Optional.of(new ColumnPredicate.IsNotNull(n.attribute()));
    }
    if (f instanceof EqualNullSafe e && e.value() == null) {
      return Optional.of(new ColumnPredicate.IsNull(e.attribute()));
    }
    if (f instanceof EqualTo e) {
      return comparison(e.attribute(), Operator.EQ, e.value());
    }
    if (f instanceof EqualNullSafe e) {
      return comparison(e.attribute(), Operator.EQ, e.value());
    }
    if (f instanceof LessThan l) {
      return comparison(l.attribute(), Operator.LT, l.value());
    }
    if (f instanceof LessThanOrEqual l) {
      return comparison(l.attribute(), Operator.LT_EQ, l.value());
    }
    if (f instanceof GreaterThan g) {
      return comparison(g.attribute(), Operator.GT, g.value());
    }
    if (f instanceof GreaterThanOrEqual g) {
      return comparison(g.attribute(), Operator.GT_EQ, g.value());
    }
    if (f instanceof In in) {
      if (in.values().length == 0 || in.values().length > MAX_IN_VALUES) {
        return Optional.empty();
      }
      List<Object> values = new ArrayList<>();
      for (Object v : in.values()) {
        Optional<Object> value = value(v);
        if (value.isEmpty()) {
          return Optional.empty();
        }
        values.add(value.get());
      }
      return Optional.of(new ColumnPredicate.In(in.attribute(), values));
    }
    return Optional.empty();
  }

  private static Optional<ColumnPredicate> comparison(String column, Operator op, Object value) {
    return value(value).map(v -> new ColumnPredicate.Comparison(column, op, v));
  }

  /**
   * A Spark filter value as the core's: integers as {@link Integer} or {@link Long}, dates as
   * {@link LocalDate}, timestamps as the {@link Instant} of their epoch micros; empty for null or
   * a value of another type.
   */
  private static Optional<Object> value(Object v) {
    if (v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Float
        || v instanceof Double) {
      return Optional.of(v);
    }
    if (v instanceof Short || v instanceof Byte) {
      return Optional.of(((Number) v).intValue());
    }
    if (v instanceof java.sql.Date || v instanceof LocalDate) {
      return Optional.of(LocalDate.ofEpochDay(DateTimeUtils.anyToDays(v)));
    }
    if (v instanceof java.sql.Timestamp || v instanceof Instant) {
      long micros = DateTimeUtils.anyToMicros(v);
      return Optional.of(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L));
    }
    return Optional.empty();
  }
}
