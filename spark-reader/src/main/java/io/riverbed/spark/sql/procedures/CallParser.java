package io.riverbed.spark.sql.procedures;

import io.riverbed.spark.sql.DelegatingParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.unsafe.types.UTF8String;
import scala.collection.JavaConverters;

/**
 * The SQL parser step that gives Spark 3.5 Hudi's {@code CALL name(args)} statement (Spark has
 * none): the arguments named ({@code table => 't'}) or positional, each a literal parsed by the
 * delegate's {@code parseExpression}; the statement becomes a {@link ProcedureCommand}. Every other
 * statement goes to the delegate.
 */
public final class CallParser extends DelegatingParser {
  private static final Pattern CALL = Pattern.compile("(?is)^\\s*CALL\\s+([^(]+?)\\s*\\((.*)\\)\\s*;?\\s*$");
  private static final Pattern NAMED = Pattern.compile("(?s)^\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*=>\\s*(.*)$");


  public CallParser(ParserInterface delegate) {
    super(delegate);
  }

  @Override
  public LogicalPlan parsePlan(String sqlText) throws ParseException {
    Matcher call = CALL.matcher(sqlText);
    if (!call.matches()) {
      return delegate.parsePlan(sqlText);
    }
    List<String> name = JavaConverters.seqAsJavaList(delegate.parseMultipartIdentifier(call.group(1)));
    Procedure procedure = Procedures.named(name);
    List<CallArgument> args = new ArrayList<>();
    for (String text : splitArguments(procedure.name(), call.group(2))) {
      Matcher named = NAMED.matcher(text);
      args.add(named.matches() ? new CallArgument(Optional.of(named.group(1)), literal(procedure, named.group(2)))
          : new CallArgument(Optional.empty(), literal(procedure, text)));
    }
    return new ProcedureCommand(new ProcedureCommand.Call(procedure, ProcedureArguments.bind(procedure, args)));
  }

  private Object literal(Procedure procedure, String text) throws ParseException {
    Expression expression = delegate.parseExpression(text.trim());
    if (!expression.foldable()) {
      throw new IllegalArgumentException("CALL " + procedure.name() + ": argument " + text.trim()
          + " is not a literal");
    }
    Object value = expression.eval(null);
    return value instanceof UTF8String s ? s.toString() : value;
  }

  /** The argument texts between top-level commas (not inside quotes or parentheses). */
  static List<String> splitArguments(String procedure, String text) {
    List<String> parts = new ArrayList<>();
    if (text.isBlank()) {
      return parts;
    }
    int depth = 0;
    char quote = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == '\\' && quote != '`') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    if (quote != 0 || depth != 0) {
      throw new IllegalArgumentException("CALL " + procedure + ": unbalanced quotes or parentheses in its arguments ("
          + text + ")");
    }
    parts.add(text.substring(start));
    for (String part : parts) {
      if (part.isBlank()) {
        throw new IllegalArgumentException("CALL " + procedure + ": an argument is empty (" + text + ")");
      }
    }
    return parts;
  }
}
