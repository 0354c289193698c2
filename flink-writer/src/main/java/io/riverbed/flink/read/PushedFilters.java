package io.riverbed.flink.read;

import io.riverbed.format.query.ColumnPredicate;
import io.riverbed.format.query.ColumnPredicate.Operator;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * The filters Flink pushes into a {@code hudi} scan as the core's {@link ColumnPredicate}:
 * comparisons of a top-level column with a literal ({@code = <> < <= > >=}, either side),
 * {@code IS [NOT] NULL}, {@code IN}, and {@code AND/OR/NOT} of those, on columns of type
 * VARCHAR, BOOLEAN, TINYINT to BIGINT, FLOAT, DOUBLE, DATE and TIMESTAMP. Anything else (a
 * cast, a function call, another type) is not translated. Timestamps become the instant their
 * local date-time is at UTC, as the sink stores them.
 */
final class PushedFilters {
  private static final Map<FunctionDefinition, Operator> COMPARISONS = Map.of(
      BuiltInFunctionDefinitions.EQUALS, Operator.EQ,
      BuiltInFunctionDefinitions.NOT_EQUALS, Operator.NOT_EQ,
      BuiltInFunctionDefinitions.LESS_THAN, Operator.LT,
      BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, Operator.LT_EQ,
      BuiltInFunctionDefinitions.GREATER_THAN, Operator.GT,
      BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, Operator.GT_EQ);

  private PushedFilters() {}

  /** One filter as a column predicate, or empty when any part of it does not translate. */
  static Optional<ColumnPredicate> translate(ResolvedExpression filter) {
    if (!(filter instanceof CallExpression call)) {
      return Optional.empty();
    }
    FunctionDefinition function = call.getFunctionDefinition();
    List<ResolvedExpression> args = call.getResolvedChildren();
    if (function == BuiltInFunctionDefinitions.AND || function == BuiltInFunctionDefinitions.OR) {
      List<ColumnPredicate> sides = new ArrayList<>();
      for (ResolvedExpression arg : args) {
        Optional<ColumnPredicate> side = translate(arg);
        if (side.isEmpty()) {
          return Optional.empty();
        }
        sides.add(side.get());
      }
      ColumnPredicate all = sides.get(0);
      for (int i = 1; i < sides.size(); i++) {
        all = function == BuiltInFunctionDefinitions.AND
            ? new ColumnPredicate.And(all, sides.get(i)) : new ColumnPredicate.Or(all, sides.get(i));
      }
      return Optional.of(all);
    }
    if (function == BuiltInFunctionDefinitions.NOT && args.size() == 1) {
      return translate(args.get(0)).map(ColumnPredicate.Not::new);
    }
    if ((function == BuiltInFunctionDefinitions.IS_NULL || function == BuiltInFunctionDefinitions.IS_NOT_NULL)
        && args.size() == 1 && args.get(0) instanceof FieldReferenceExpression field && supported(field)) {
      return Optional.of(function == BuiltInFunctionDefinitions.IS_NULL
          ? new ColumnPredicate.IsNull(field.getName()) : new ColumnPredicate.IsNotNull(field.getName()));
    }
    if (function == BuiltInFunctionDefinitions.IN && args.size() > 1 && args.get(0) instanceof FieldReferenceExpression field) {
      List<Object> values = new ArrayList<>();
      for (ResolvedExpression arg : args.subList(1, args.size())) {
        Optional<Object> value = arg instanceof ValueLiteralExpression literal ? value(field, literal) : Optional.empty();
        if (value.isEmpty()) {
          return Optional.empty();
        }
        values.add(value.get());
      }
      return Optional.of(new ColumnPredicate.In(field.getName(), values));
    }
    Operator op = COMPARISONS.get(function);
    if (op != null && args.size() == 2) {
      if (args.get(0) instanceof FieldReferenceExpression field && args.get(1) instanceof ValueLiteralExpression literal) {
        return value(field, literal).map(v -> new ColumnPredicate.Comparison(field.getName(), op, v));
      }
      if (args.get(1) instanceof FieldReferenceExpression field && args.get(0) instanceof ValueLiteralExpression literal) {
        return value(field, literal).map(v -> new ColumnPredicate.Comparison(field.getName(), mirrored(op), v));
      }
    }
    return Optional.empty();
  }

  /** {@code literal op column} as {@code column mirrored(op) literal}. */
  private static Operator mirrored(Operator op) {
    return switch (op) {
      case EQ, NOT_EQ -> op;
      case LT -> Operator.GT;
      case LT_EQ -> Operator.GT_EQ;
      case GT -> Operator.LT;
      case GT_EQ -> Operator.LT_EQ;
    };
  }

  private static boolean supported(FieldReferenceExpression field) {
    return switch (field.getOutputDataType().getLogicalType().getTypeRoot()) {
      case VARCHAR, BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DATE, TIMESTAMP_WITHOUT_TIME_ZONE -> true;
      default -> false;
    };
  }

  /** The literal as the core's value for the column's stored type; empty for null or a value the type cannot hold exactly. */
  private static Optional<Object> value(FieldReferenceExpression field, ValueLiteralExpression literal) {
    LogicalType type = field.getOutputDataType().getLogicalType();
    Optional<Object> raw = literal.getValueAs(Object.class);
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    Object v = raw.get();
    try {
      return switch (type.getTypeRoot()) {
        case VARCHAR -> literal.getValueAs(String.class).map(s -> (Object) s);
        case BOOLEAN -> v instanceof Boolean b ? Optional.<Object>of(b) : Optional.empty();
        case TINYINT, SMALLINT, INTEGER -> exact(v).map(d -> (Object) d.intValueExact());
        case BIGINT -> exact(v).map(d -> (Object) d.longValueExact());
        case FLOAT -> v instanceof Float f ? Optional.<Object>of(f)
            : exactDouble(v).filter(d -> (double) d.floatValue() == d).map(d -> (Object) d.floatValue());
        case DOUBLE -> v instanceof Double d ? Optional.<Object>of(d) : exactDouble(v).map(d -> (Object) d);
        case DATE -> literal.getValueAs(LocalDate.class).map(d -> (Object) d);
        case TIMESTAMP_WITHOUT_TIME_ZONE -> literal.getValueAs(LocalDateTime.class).map(t -> (Object) t.toInstant(ZoneOffset.UTC));
        default -> Optional.empty();
      };
    } catch (ArithmeticException outOfRange) {
      return Optional.empty();
    }
  }

  /** A decimal or integral literal as the double that holds it exactly; empty when no double does. */
  private static Optional<Double> exactDouble(Object v) {
    BigDecimal exact = v instanceof BigDecimal d ? d : exact(v).orElse(null);
    if (exact == null) {
      return Optional.empty();
    }
    double d = exact.doubleValue();
    return Double.isFinite(d) && new BigDecimal(d).compareTo(exact) == 0 ? Optional.of(d) : Optional.empty();
  }

  /** An integral literal as an exact decimal (a fractional one is not compared with an integer column). */
  private static Optional<BigDecimal> exact(Object v) {
    if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
      return Optional.of(BigDecimal.valueOf(((Number) v).longValue()));
    }
    if (v instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0) {
      return Optional.of(d);
    }
    return Optional.empty();
  }
}
