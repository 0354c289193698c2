package io.riverbed.spark.sql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.plans.logical.Assignment;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/** The {@code SET} (or {@code INSERT ... VALUES}) assignments of a statement, by target column name. */
final class Assignments {
  private final Map<String, Expression> byColumn = new LinkedHashMap<>();

  private Assignments() {}

  /**
   * @param statement names the statement in messages
   * @throws RefusedStatementException for an assignment to anything but a top-level column
   */
  static Assignments of(Seq<Assignment> assignments, String statement) {
    Assignments out = new Assignments();
    for (Assignment a : JavaConverters.seqAsJavaList(assignments)) {
      if (!(a.key() instanceof Attribute column)) {
        throw new RefusedStatementException(statement + ": only assignments to top-level columns are supported "
            + "(`column = ...`), not `" + a.key().sql() + " = ...`");
      }
      if (!StatementTarget.isMetaColumn(column.name())) {
        out.byColumn.put(column.name().toLowerCase(java.util.Locale.ROOT), a.value());
      }
    }
    return out;
  }

  /** These assignments and {@code column = value} where {@code column} has none. */
  Assignments orAssign(String column, Expression value) {
    Assignments out = new Assignments();
    out.byColumn.putAll(byColumn);
    out.byColumn.putIfAbsent(column.toLowerCase(java.util.Locale.ROOT), value);
    return out;
  }

  Optional<Expression> of(String column) {
    return Optional.ofNullable(byColumn.get(column.toLowerCase(java.util.Locale.ROOT)));
  }

  List<String> columns() {
    return List.copyOf(byColumn.keySet());
  }

  /** The value assigned to {@code column} in its type, or {@code otherwise} when none is. */
  Column valueOf(Attribute column, Column otherwise) {
    return of(column.name()).map(e -> new Column(e).cast(column.dataType())).orElse(otherwise);
  }

  static Column nullOf(Attribute column) {
    return new Column(Literal$.MODULE$.create(null, column.dataType()));
  }
}
