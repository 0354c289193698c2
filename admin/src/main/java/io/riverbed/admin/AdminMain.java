package io.riverbed.admin;

import java.util.Arrays;
import java.util.List;

/** Entry point of {@code riverbed-admin} (the bundle jar's main class). */
public final class AdminMain {
  /** The command's log configuration (warnings to stderr), unless one is given with {@code -Dlog4j2.configurationFile}. */
  static final String LOG_CONFIG = "riverbed-admin-log4j2.properties";
  /** Level of Riverbed's own loggers in {@link #LOG_CONFIG}: WARN, INFO with {@code --verbose}. */
  static final String LOG_LEVEL_PROPERTY = "riverbed.admin.log.level";

  private AdminMain() {}

  public static void main(String[] args) {
    if (System.getProperty("log4j2.configurationFile") == null && System.getProperty("log4j.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", LOG_CONFIG);
    }
    // Before anything logs: the level is read once, when the logging system starts.
    List<String> given = Arrays.asList(args);
    if (System.getProperty(LOG_LEVEL_PROPERTY) == null && (given.contains("--verbose") || given.contains("-v"))) {
      System.setProperty(LOG_LEVEL_PROPERTY, "INFO");
    }
    System.exit(AdminCommand.commandLine(System.getenv()).execute(args));
  }
}
