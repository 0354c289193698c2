package io.riverbed.format.options;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The one rule for printing options: wherever an options map or value goes into a log line, an
 * exception message or a {@code toString}, it goes through here first, so a password, key or token
 * given as an option never appears in logs, exceptions or files.
 *
 * <p>A key is secret when (ignoring case) it contains {@code password}, {@code passwd},
 * {@code secret}, {@code credential}, {@code token} or {@code jaas.config}, or it is a file system
 * key option ({@code fs.s3a.access.key}, {@code fs.s3a.bucket.b.secret.key},
 * {@code fs.azure.account.key.<account>}, also under the writer's {@code hadoop.} prefix); its
 * value prints as {@value #REDACTED}. In every other value, a {@code password=}/{@code pwd=}
 * parameter (JDBC URLs: {@code jdbc:hive2://h:10000/db;password=...}) and the password of a URI's
 * user info ({@code scheme://user:password@host}) print as {@value #REDACTED}.
 */
public final class SecretOptions {
  /** What a secret value prints as. */
  public static final String REDACTED = "******";

  private static final Pattern SECRET_KEY = Pattern.compile(
      "password|passwd|secret|credential|token|jaas\\.config|(^|\\.)fs\\.(.+\\.)?key(\\.|$)");
  private static final Pattern PASSWORD_PARAMETER = Pattern.compile(
      "(?i)((?:password|passwd|pwd)\\s*=)[^;&,\\s]*");
  private static final Pattern URI_USER_PASSWORD = Pattern.compile("(://[^/:@\\s]*:)[^@/\\s]*@");

  private SecretOptions() {}

  /** True if the option {@code key} holds a secret (see the class comment). */
  public static boolean isSecret(String key) {
    return key != null && SECRET_KEY.matcher(key.toLowerCase(Locale.ROOT)).find();
  }

  /** {@code value} as it may be printed for option {@code key}. */
  public static String redact(String key, String value) {
    if (value == null) {
      return null;
    }
    return isSecret(key) ? REDACTED : redactText(value);
  }

  /** {@code text} with password parameters and URI user-info passwords replaced. */
  public static String redactText(String text) {
    if (text == null) {
      return null;
    }
    String out = PASSWORD_PARAMETER.matcher(text).replaceAll("$1" + REDACTED);
    return URI_USER_PASSWORD.matcher(out).replaceAll("$1" + REDACTED + "@");
  }

  /** A copy of {@code options} (same order) with every value redacted, for printing. */
  public static Map<String, String> redact(Map<String, String> options) {
    Map<String, String> out = new LinkedHashMap<>();
    options.forEach((k, v) -> out.put(k, redact(k, v)));
    return out;
  }
}
