package io.riverbed.spark.sql.procedures;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/** The {@code CALL} procedures Riverbed has, by Hudi 0.15's names (case-insensitive). */
final class Procedures {
  private static final Map<String, Supplier<Procedure>> ALL = new TreeMap<>(Map.of(
      "show_commits", ShowCommitsProcedure::new,
      "rollback_to_instant", RollbackToInstantProcedure::new,
      "run_compaction", RunCompactionProcedure::new,
      "show_compaction", ShowCompactionProcedure::new,
      "run_clean", RunCleanProcedure::new,
      "create_savepoint", CreateSavepointProcedure::new,
      "show_savepoints", ShowSavepointsProcedure::new,
      "delete_savepoint", DeleteSavepointProcedure::new,
      "rollback_to_savepoint", RollbackToSavepointProcedure::new));

  private Procedures() {}

  /**
   * The procedure {@code nameParts} names: {@code name} or, as Hudi accepts it, {@code system.name}.
   *
   * @throws IllegalArgumentException naming the procedure and listing those there are
   */
  static Procedure named(List<String> nameParts) {
    String name = String.join(".", nameParts);
    boolean qualified = nameParts.size() == 2 && nameParts.get(0).equalsIgnoreCase("system");
    Supplier<Procedure> procedure = nameParts.size() == 1 || qualified
        ? ALL.get(nameParts.get(nameParts.size() - 1).toLowerCase(Locale.ROOT)) : null;
    if (procedure == null) {
      throw new IllegalArgumentException("CALL " + name + ": no such procedure; the procedures are "
          + String.join(", ", ALL.keySet()));
    }
    return procedure.get();
  }
}
