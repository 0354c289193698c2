package io.riverbed.spark.sql.procedures;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * The arguments of one {@code CALL}, bound to the procedure's parameters as Hudi 0.15 binds them:
 * all named ({@code k => v}, names case-insensitive) or all positional, each converted to its
 * parameter's type; a missing optional parameter takes its default.
 */
final class ProcedureArguments {
  private final String procedure;
  private final Map<String, Object> values;

  private ProcedureArguments(String procedure, Map<String, Object> values) {
    this.procedure = procedure;
    this.values = values;
  }

  /**
   * Binds {@code args} to {@code procedure}'s parameters.
   *
   * @throws IllegalArgumentException naming the procedure and argument that does not fit
   */
  static ProcedureArguments bind(Procedure procedure, List<CallArgument> args) {
    List<ProcedureParameter> parameters = procedure.parameters();
    String call = "CALL " + procedure.name();
    long named = args.stream().filter(a -> a.name().isPresent()).count();
    if (named != 0 && named != args.size()) {
      throw new IllegalArgumentException(call + ": named and positional arguments cannot be mixed");
    }
    Map<String, Object> given = new LinkedHashMap<>();
    if (named == 0) {
      if (args.size() > parameters.size()) {
        throw new IllegalArgumentException(call + ": too many arguments (" + args.size() + "); its parameters are "
            + describe(parameters));
      }
      for (int i = 0; i < args.size(); i++) {
        given.put(parameters.get(i).name(), args.get(i).value());
      }
    } else {
      for (CallArgument a : args) {
        String name = a.name().orElseThrow().toLowerCase(Locale.ROOT);
        if (parameters.stream().noneMatch(p -> p.name().equals(name))) {
          throw new IllegalArgumentException(call + ": unknown argument " + a.name().get() + "; its parameters are "
              + describe(parameters));
        }
        if (given.containsKey(name)) {
          throw new IllegalArgumentException(call + ": argument " + name + " is given twice");
        }
        given.put(name, a.value());
      }
    }
    Map<String, Object> values = new HashMap<>();
    for (ProcedureParameter p : parameters) {
      Object value = given.containsKey(p.name()) ? given.get(p.name()) : p.defaultValue();
      if (value == null && p.required()) {
        throw new IllegalArgumentException(call + ": missing required argument " + p.name() + "; its parameters are "
            + describe(parameters));
      }
      if (value != null) {
        values.put(p.name(), convert(call, p, value));
      }
    }
    return new ProcedureArguments(procedure.name(), values);
  }

  Optional<String> string(String name) {
    return Optional.ofNullable((String) values.get(name));
  }

  Optional<Integer> integer(String name) {
    return Optional.ofNullable((Integer) values.get(name));
  }

  Optional<Long> longValue(String name) {
    return Optional.ofNullable((Long) values.get(name));
  }

  boolean bool(String name) {
    Object v = values.get(name);
    if (v == null) {
      throw new IllegalStateException("CALL " + procedure + ": parameter " + name + " has no default");
    }
    return (Boolean) v;
  }

  String procedure() {
    return procedure;
  }

  private static Object convert(String call, ProcedureParameter p, Object value) {
    DataType type = p.type();
    try {
      if (type.equals(DataTypes.StringType)) {
        return value.toString();
      }
      if (type.equals(DataTypes.IntegerType)) {
        return value instanceof Number n ? Integer.valueOf(Math.toIntExact(n.longValue()))
            : Integer.valueOf(value.toString().trim());
      }
      if (type.equals(DataTypes.LongType)) {
        return value instanceof Number n ? Long.valueOf(n.longValue()) : Long.valueOf(value.toString().trim());
      }
      if (type.equals(DataTypes.BooleanType)) {
        if (value instanceof Boolean b) {
          return b;
        }
        String text = value.toString().trim().toLowerCase(Locale.ROOT);
        if (text.equals("true") || text.equals("false")) {
          return Boolean.valueOf(text);
        }
      }
    } catch (ArithmeticException | NumberFormatException e) {
      // reported below with the argument's name
    }
    throw new IllegalArgumentException(call + ": argument " + p.name() + " must be of type " + type.simpleString()
        + ", given " + value);
  }

  private static String describe(List<ProcedureParameter> parameters) {
    StringBuilder s = new StringBuilder();
    for (ProcedureParameter p : parameters) {
      if (!s.isEmpty()) {
        s.append(", ");
      }
      s.append(p.name()).append(' ').append(p.type().simpleString()).append(p.required() ? " (required)" : "");
    }
    return s.toString();
  }
}
