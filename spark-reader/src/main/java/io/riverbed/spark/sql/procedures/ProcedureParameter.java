package io.riverbed.spark.sql.procedures;

import org.apache.spark.sql.types.DataType;

/**
 * One parameter of a {@code CALL} procedure, as Hudi 0.15 declares it: its name, position (the
 * order of the list), type, and whether it is required or its default.
 *
 * @param defaultValue the value when the call omits it; null for none
 */
record ProcedureParameter(String name, DataType type, boolean required, Object defaultValue) {
  static ProcedureParameter required(String name, DataType type) {
    return new ProcedureParameter(name, type, true, null);
  }

  static ProcedureParameter optional(String name, DataType type) {
    return new ProcedureParameter(name, type, false, null);
  }

  static ProcedureParameter optional(String name, DataType type, Object defaultValue) {
    return new ProcedureParameter(name, type, false, defaultValue);
  }
}
