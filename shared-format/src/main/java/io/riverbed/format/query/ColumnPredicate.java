package io.riverbed.format.query;

import java.io.Serializable;
import java.util.List;

/**
 * A filter on top-level columns that an engine hands to the core so that a read can skip the
 * Parquet row groups and base files whose statistics show no row can pass it. It only ever
 * narrows what is read: the engine still evaluates its own filter on every row returned.
 *
 * <p>Literal values are plain Java values of the column's stored type: {@link String},
 * {@link Boolean}, {@link Integer}, {@link Long}, {@link Float}, {@link Double},
 * {@link java.time.LocalDate} for a date, and {@link java.time.Instant} for a timestamp stored as
 * epoch millis or micros; an {@link Integer} also compares with a long column. SQL semantics: a
 * comparison with null is never true.
 */
public sealed interface ColumnPredicate extends Serializable {
  /** A comparison operator between a column and a literal. */
  enum Operator { EQ, NOT_EQ, LT, LT_EQ, GT, GT_EQ }

  /** {@code column <op> value}; {@code value} is never null. */
  record Comparison(String column, Operator operator, Object value) implements ColumnPredicate {
    public Comparison {
      if (value == null) {
        throw new IllegalArgumentException("comparison of column '" + column + "' with null: use IsNull");
      }
    }
  }

  /** {@code column IS NULL}. */
  record IsNull(String column) implements ColumnPredicate {}

  /** {@code column IS NOT NULL}. */
  record IsNotNull(String column) implements ColumnPredicate {}

  /** {@code column IN (values)}; the values are never null. */
  record In(String column, List<Object> values) implements ColumnPredicate {
    public In {
      values = List.copyOf(values);
    }
  }

  /** Both sides hold. */
  record And(ColumnPredicate left, ColumnPredicate right) implements ColumnPredicate {}

  /** Either side holds. */
  record Or(ColumnPredicate left, ColumnPredicate right) implements ColumnPredicate {}

  /** The child does not hold (SQL: a row where the child is unknown passes neither). */
  record Not(ColumnPredicate child) implements ColumnPredicate {}

  /** The conjunction of {@code predicates}, which must not be empty. */
  static ColumnPredicate allOf(List<ColumnPredicate> predicates) {
    ColumnPredicate all = predicates.get(0);
    for (int i = 1; i < predicates.size(); i++) {
      all = new And(all, predicates.get(i));
    }
    return all;
  }
}
