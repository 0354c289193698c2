package io.riverbed.format.write.batch;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The write operation of a SQL {@code INSERT INTO}, chosen from the session's and the table's
 * settings as Apache Hudi 0.15 chooses it: {@value #INSERT_INTO_OPERATION} ({@code insert} by
 * default, so inserting a key twice keeps both rows); when only the deprecated
 * {@value #INSERT_MODE} or {@value #BULK_INSERT_ENABLE} are set, they decide.
 */
public final class SqlInsertOperation {
  public static final String INSERT_INTO_OPERATION = "hoodie.spark.sql.insert.into.operation";
  public static final String INSERT_MODE = "hoodie.sql.insert.mode";
  public static final String BULK_INSERT_ENABLE = "hoodie.sql.bulk.insert.enable";
  public static final String INSERT_DUP_POLICY = "hoodie.datasource.insert.dup.policy";
  /** The settings this class reads, which are not options of the batch write itself. */
  public static final Set<String> KEYS = Set.of(INSERT_INTO_OPERATION, INSERT_MODE, BULK_INSERT_ENABLE, INSERT_DUP_POLICY);

  /** Each setting's key → {default, description}, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  private SqlInsertOperation() {}

  /**
   * The operation of an {@code INSERT INTO} under these settings.
   *
   * @throws InvalidTableException naming the setting whose value Riverbed does not take
   */
  public static WriteOperationType of(Map<String, String> settings) {
    String policy = value(settings, INSERT_DUP_POLICY);
    if (policy != null && !policy.equals("none")) {
      throw new InvalidTableException("setting " + INSERT_DUP_POLICY + "='" + policy + "' is not supported by "
          + "Riverbed's INSERT INTO; only 'none' (keep duplicates, Hudi's default) is");
    }
    String operation = value(settings, INSERT_INTO_OPERATION);
    if (operation != null) {
      return switch (operation) {
        case "insert" -> WriteOperationType.INSERT;
        case "bulk_insert" -> WriteOperationType.BULK_INSERT;
        case "upsert" -> WriteOperationType.UPSERT;
        default -> throw new InvalidTableException("setting " + INSERT_INTO_OPERATION + "='" + operation
            + "' is none of insert, bulk_insert, upsert");
      };
    }
    String mode = value(settings, INSERT_MODE);
    if (mode != null && policy == null) {
      return switch (mode) {
        case "upsert" -> WriteOperationType.UPSERT;
        case "non-strict" -> "true".equals(value(settings, BULK_INSERT_ENABLE))
            ? WriteOperationType.BULK_INSERT : WriteOperationType.INSERT;
        case "strict" -> throw new InvalidTableException("setting " + INSERT_MODE + "='strict' (fail on a key the "
            + "table holds) is not supported by Riverbed; use " + INSERT_INTO_OPERATION + "=upsert or insert");
        default -> throw new InvalidTableException("setting " + INSERT_MODE + "='" + mode
            + "' is none of upsert, strict, non-strict");
      };
    }
    if ("true".equals(value(settings, BULK_INSERT_ENABLE)) && policy == null) {
      return WriteOperationType.BULK_INSERT;
    }
    return WriteOperationType.INSERT;
  }

  private static String value(Map<String, String> settings, String key) {
    String v = settings.get(key);
    return v == null || v.isBlank() ? null : v.trim().toLowerCase(Locale.ROOT);
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(INSERT_INTO_OPERATION, new String[] {"insert", "Operation of INSERT INTO: insert, bulk_insert or upsert."});
    d.put(INSERT_MODE, new String[] {"", "Deprecated (Hudi 0.14): upsert or non-strict, read only when "
        + INSERT_INTO_OPERATION + " and " + INSERT_DUP_POLICY + " are unset; strict is refused."});
    d.put(BULK_INSERT_ENABLE, new String[] {"false", "Deprecated (Hudi 0.14): true makes INSERT INTO a bulk_insert "
        + "when " + INSERT_INTO_OPERATION + " is unset."});
    d.put(INSERT_DUP_POLICY, new String[] {"none", "Only none (keep duplicate keys) is supported."});
    return Collections.unmodifiableMap(d);
  }
}
