package io.riverbed.spark.sql.procedures;

import io.riverbed.format.options.SecretOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code options} argument of a procedure, as Hudi's {@code HoodieCLIUtils.extractOptions}
 * reads it: {@code key=value} pairs separated by commas.
 */
final class ProcedureOptions {
  private ProcedureOptions() {}

  static Map<String, String> parse(ProcedureArguments args) {
    Map<String, String> options = new HashMap<>();
    args.string("options").ifPresent(text -> {
      for (String pair : text.split(",")) {
        if (pair.isBlank()) {
          continue;
        }
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("CALL " + args.procedure() + ": option '" + SecretOptions.redact(pair, pair.trim())
              + "' is not key=value (options => 'k1=v1,k2=v2')");
        }
        options.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
      }
    });
    return options;
  }
}
