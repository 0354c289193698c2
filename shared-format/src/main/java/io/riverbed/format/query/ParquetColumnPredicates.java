package io.riverbed.format.query;

import java.time.Instant;
import java.time.LocalDate;
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

/**
 * A {@link ColumnPredicate} as a Parquet {@link FilterPredicate} for one base file, built against
 * that file's own Parquet schema, for skipping row groups by their min/max/null-count statistics.
 * The result is never stronger than the predicate: a part that cannot be expressed for the file
 * (a column the file lacks or stores with another type, a literal of another type, a timestamp
 * finer than the column's unit, a NaN) is left out of an AND, and makes an OR or a NOT
 * inexpressible. Parquet's {@code notEq} keeps nulls, so it is weaker than SQL's {@code <>}.
 */
public final class ParquetColumnPredicates {
  private ParquetColumnPredicates() {}

  /** The Parquet predicate for a file with {@code fileSchema}; empty when no part can be expressed. */
  public static Optional<FilterPredicate> forFile(ColumnPredicate predicate, MessageType fileSchema) {
    return convert(predicate, fileSchema, false);
  }

  /**
   * {@code strict}: the result must be equivalent to the predicate (needed under a NOT); otherwise
   * it may be weaker (an AND may keep only its expressible side).
   */
  private static Optional<FilterPredicate> convert(ColumnPredicate p, MessageType schema, boolean strict) {
    if (p instanceof ColumnPredicate.And and) {
      Optional<FilterPredicate> l = convert(and.left(), schema, strict);
      Optional<FilterPredicate> r = convert(and.right(), schema, strict);
      if (l.isPresent() && r.isPresent()) {
        return Optional.of(FilterApi.and(l.get(), r.get()));
      }
      return strict ? Optional.empty() : l.isPresent() ? l : r;
    }
    if (p instanceof ColumnPredicate.Or or) {
      Optional<FilterPredicate> l = convert(or.left(), schema, strict);
      Optional<FilterPredicate> r = convert(or.right(), schema, strict);
      return l.isPresent() && r.isPresent() ? Optional.of(FilterApi.or(l.get(), r.get())) : Optional.empty();
    }
    if (p instanceof ColumnPredicate.Not not) {
      return convert(not.child(), schema, true).map(FilterApi::not);
    }
    if (p instanceof ColumnPredicate.IsNull n) {
      return leaf(schema, n.column(), ColumnPredicate.Operator.EQ, null);
    }
    if (p instanceof ColumnPredicate.IsNotNull n) {
      return leaf(schema, n.column(), ColumnPredicate.Operator.NOT_EQ, null);
    }
    if (p instanceof ColumnPredicate.Comparison c) {
      return leaf(schema, c.column(), c.operator(), c.value());
    }
    ColumnPredicate.In in = (ColumnPredicate.In) p;
    FilterPredicate any = null;
    for (Object v : in.values()) {
      Optional<FilterPredicate> eq = leaf(schema, in.column(), ColumnPredicate.Operator.EQ, v);
      if (eq.isEmpty()) {
        return Optional.empty();
      }
      any = any == null ? eq.get() : FilterApi.or(any, eq.get());
    }
    return Optional.ofNullable(any);
  }

  /** A comparison of one column with {@code value}; a null value means IS NULL (EQ) or IS NOT NULL (NOT_EQ). */
  private static Optional<FilterPredicate> leaf(MessageType schema, String column, ColumnPredicate.Operator op, Object value) {
    if (!schema.containsField(column)) {
      return Optional.empty();
    }
    Type type = schema.getType(column);
    if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
      return Optional.empty();
    }
    try {
      return typedLeaf(type.asPrimitiveType(), column, op, value);
    } catch (ArithmeticException outOfRange) { // a date or timestamp the column's unit cannot hold: no pruning by it
      return Optional.empty();
    }
  }

  private static Optional<FilterPredicate> typedLeaf(PrimitiveType primitive, String column, ColumnPredicate.Operator op,
      Object value) {
    LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
    return switch (primitive.getPrimitiveTypeName()) {
      case BINARY -> logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
          || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
          ? typed(FilterApi.binaryColumn(column), op, value, v -> v instanceof String s ? Binary.fromString(s) : null)
          : Optional.empty();
      case INT32 -> {
        if (logical == null || isSignedInt(logical)) {
          yield typed(FilterApi.intColumn(column), op, value, v -> v instanceof Integer i ? i : null);
        }
        if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          yield typed(FilterApi.intColumn(column), op, value,
              v -> v instanceof LocalDate d ? Math.toIntExact(d.toEpochDay()) : null);
        }
        yield Optional.empty();
      }
      case INT64 -> {
        if (logical == null || isSignedInt(logical)) {
          yield typed(FilterApi.longColumn(column), op, value,
              v -> v instanceof Long || v instanceof Integer ? ((Number) v).longValue() : null);
        }
        if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts) {
          yield typed(FilterApi.longColumn(column), op, value, v -> v instanceof Instant i ? epoch(i, ts.getUnit()) : null);
        }
        yield Optional.empty();
      }
      case FLOAT -> logical != null ? Optional.empty()
          : typed(FilterApi.floatColumn(column), op, value, v -> v instanceof Float f && !f.isNaN() ? f : null);
      case DOUBLE -> logical != null ? Optional.empty()
          : typed(FilterApi.doubleColumn(column), op, value, v -> v instanceof Double d && !d.isNaN() ? d : null);
      case BOOLEAN -> {
        if (op != ColumnPredicate.Operator.EQ && op != ColumnPredicate.Operator.NOT_EQ) {
          yield Optional.empty();
        }
        Operators.BooleanColumn c = FilterApi.booleanColumn(column);
        if (value == null) {
          yield Optional.of(op == ColumnPredicate.Operator.EQ ? FilterApi.eq(c, null) : FilterApi.notEq(c, null));
        }
        yield value instanceof Boolean b
            ? Optional.of(op == ColumnPredicate.Operator.EQ ? FilterApi.eq(c, b) : FilterApi.notEq(c, b))
            : Optional.empty();
      }
      default -> Optional.empty();
    };
  }

  /** The instant in the column's unit; null (inexpressible) when the instant is finer than the unit. */
  private static Long epoch(Instant instant, LogicalTypeAnnotation.TimeUnit unit) {
    long seconds = instant.getEpochSecond();
    int nanos = instant.getNano();
    return switch (unit) {
      case MILLIS -> nanos % 1_000_000 != 0 ? null : Math.addExact(Math.multiplyExact(seconds, 1_000L), nanos / 1_000_000);
      case MICROS -> nanos % 1_000 != 0 ? null : Math.addExact(Math.multiplyExact(seconds, 1_000_000L), nanos / 1_000);
      case NANOS -> Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos);
    };
  }

  private static boolean isSignedInt(LogicalTypeAnnotation logical) {
    return logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned();
  }

  private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt> Optional<FilterPredicate>
      typed(C column, ColumnPredicate.Operator op, Object value, Function<Object, T> convert) {
    if (value == null) {
      return Optional.of(op == ColumnPredicate.Operator.EQ ? FilterApi.eq(column, null) : FilterApi.notEq(column, null));
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
