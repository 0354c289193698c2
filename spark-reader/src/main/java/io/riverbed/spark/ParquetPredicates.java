package io.riverbed.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
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
 * Spark filters as a Parquet {@link FilterPredicate} for one base file, built against that file's
 * own Parquet schema so a column whose stored type differs (schema evolution) is simply left out.
 * Top-level primitive columns: strings, booleans, int, long, float, double, date and
 * timestamp-micros. A predicate never drops a row the Spark filter would keep; Spark evaluates
 * every filter again on the rows anyway.
 */
public final class ParquetPredicates {
  private static final int MAX_IN_VALUES = 32;

  private ParquetPredicates() {}

  private enum Op { EQ, NOT_EQ, LT, LT_EQ, GT, GT_EQ }

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
    List<FilterPredicate> parts = new ArrayList<>();
    for (Filter f : filters) {
      convert(f, fileSchema, false).ifPresent(parts::add);
    }
    return parts.stream().reduce(FilterApi::and);
  }

  /**
   * {@code strict}: the result must be equivalent to the filter (needed under a negation);
   * otherwise it may be weaker (an AND may keep only its convertible side).
   */
  static Optional<FilterPredicate> convert(Filter f, MessageType schema, boolean strict) {
    if (f instanceof And a) {
      Optional<FilterPredicate> l = convert(a.left(), schema, strict);
      Optional<FilterPredicate> r = convert(a.right(), schema, strict);
      if (l.isPresent() && r.isPresent()) {
        return Optional.of(FilterApi.and(l.get(), r.get()));
      }
      return strict ? Optional.empty() : l.isPresent() ? l : r;
    }
    if (f instanceof Or o) {
      Optional<FilterPredicate> l = convert(o.left(), schema, strict);
      Optional<FilterPredicate> r = convert(o.right(), schema, strict);
      return l.isPresent() && r.isPresent() ? Optional.of(FilterApi.or(l.get(), r.get())) : Optional.empty();
    }
    if (f instanceof Not n) {
      return convert(n.child(), schema, true).map(FilterApi::not);
    }
    if (f instanceof IsNull n) {
      return leaf(schema, n.attribute(), Op.EQ, null, true);
    }
    if (f instanceof IsNotNull n) {
      return leaf(schema, n.attribute(), Op.NOT_EQ, null, true);
    }
    if (f instanceof EqualTo e) {
      return leaf(schema, e.attribute(), Op.EQ, e.value(), false);
    }
    if (f instanceof EqualNullSafe e) {
      return leaf(schema, e.attribute(), Op.EQ, e.value(), e.value() == null);
    }
    if (f instanceof LessThan l) {
      return leaf(schema, l.attribute(), Op.LT, l.value(), false);
    }
    if (f instanceof LessThanOrEqual l) {
      return leaf(schema, l.attribute(), Op.LT_EQ, l.value(), false);
    }
    if (f instanceof GreaterThan g) {
      return leaf(schema, g.attribute(), Op.GT, g.value(), false);
    }
    if (f instanceof GreaterThanOrEqual g) {
      return leaf(schema, g.attribute(), Op.GT_EQ, g.value(), false);
    }
    if (f instanceof In in) {
      if (in.values().length == 0 || in.values().length > MAX_IN_VALUES) {
        return Optional.empty();
      }
      FilterPredicate any = null;
      for (Object v : in.values()) {
        Optional<FilterPredicate> eq = leaf(schema, in.attribute(), Op.EQ, v, false);
        if (eq.isEmpty()) {
          return Optional.empty();
        }
        any = any == null ? eq.get() : FilterApi.or(any, eq.get());
      }
      return Optional.ofNullable(any);
    }
    return Optional.empty();
  }

  /** A comparison on one column; {@code nullValue} marks a comparison with null (is / is not null). */
  private static Optional<FilterPredicate> leaf(MessageType schema, String column, Op op, Object value, boolean nullValue) {
    if (!nullValue && value == null) {
      return Optional.empty();
    }
    if (!schema.containsField(column)) {
      return Optional.empty();
    }
    Type type = schema.getType(column);
    if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
      return Optional.empty();
    }
    PrimitiveType p = type.asPrimitiveType();
    LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
    try {
      return switch (p.getPrimitiveTypeName()) {
        case BINARY -> {
          if (!(logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
              || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation)) {
            yield Optional.empty();
          }
          yield typed(FilterApi.binaryColumn(column), op, value, nullValue,
              v -> v instanceof String s ? Binary.fromString(s) : null);
        }
        case INT32 -> {
          if (logical == null || isSignedInt(logical, 32)) {
            yield typed(FilterApi.intColumn(column), op, value, nullValue,
                v -> v instanceof Integer || v instanceof Short || v instanceof Byte ? ((Number) v).intValue() : null);
          }
          if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
            yield typed(FilterApi.intColumn(column), op, value, nullValue,
                v -> v instanceof java.sql.Date || v instanceof java.time.LocalDate ? DateTimeUtils.anyToDays(v) : null);
          }
          yield Optional.empty();
        }
        case INT64 -> {
          if (logical == null || isSignedInt(logical, 64)) {
            yield typed(FilterApi.longColumn(column), op, value, nullValue,
                v -> v instanceof Long || v instanceof Integer ? ((Number) v).longValue() : null);
          }
          if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
              && ts.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS && ts.isAdjustedToUTC()) {
            yield typed(FilterApi.longColumn(column), op, value, nullValue,
                v -> v instanceof java.sql.Timestamp || v instanceof java.time.Instant ? DateTimeUtils.anyToMicros(v) : null);
          }
          yield Optional.empty();
        }
        case FLOAT -> logical != null ? Optional.empty()
            : typed(FilterApi.floatColumn(column), op, value, nullValue, v -> v instanceof Float x ? x : null);
        case DOUBLE -> logical != null ? Optional.empty()
            : typed(FilterApi.doubleColumn(column), op, value, nullValue, v -> v instanceof Double x ? x : null);
        case BOOLEAN -> {
          if (op != Op.EQ && op != Op.NOT_EQ) {
            yield Optional.empty();
          }
          Operators.BooleanColumn c = FilterApi.booleanColumn(column);
          if (nullValue) {
            yield Optional.of(op == Op.EQ ? FilterApi.eq(c, null) : FilterApi.notEq(c, null));
          }
          yield value instanceof Boolean b
              ? Optional.of(op == Op.EQ ? FilterApi.eq(c, b) : FilterApi.notEq(c, b)) : Optional.empty();
        }
        default -> Optional.empty();
      };
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static boolean isSignedInt(LogicalTypeAnnotation logical, int width) {
    return logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned() && i.getBitWidth() == width;
  }

  private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt> Optional<FilterPredicate> typed(
      C column, Op op, Object value, boolean nullValue, Function<Object, T> convert) {
    if (nullValue) {
      return Optional.of(op == Op.EQ ? FilterApi.eq(column, null) : FilterApi.notEq(column, null));
    }
    T v = convert.apply(value);
    if (v == null) {
      return Optional.empty();
    }
    return Optional.of(switch (op) {
      case EQ -> FilterApi.eq(column, v);
      case NOT_EQ -> FilterApi.notEq(column, v);
      case LT -> FilterApi.lt(column, v);
      case LT_EQ -> FilterApi.ltEq(column, v);
      case GT -> FilterApi.gt(column, v);
      case GT_EQ -> FilterApi.gtEq(column, v);
    });
  }
}
