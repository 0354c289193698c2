package io.riverbed.flink.job;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Everything logged in this JVM (every thread: job client, JobManager, tasks, coordinator) while
 * open, at {@code level} and above for every logger, kept in memory as the formatted message plus
 * the full stack trace of its throwable. Closing restores the logging configuration.
 */
final class LogCapture implements AutoCloseable {
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
  private final Appender appender = new Appender(events);
  private final java.util.Map<LoggerConfig, Level> previousLevels = new java.util.HashMap<>();

  private LogCapture(Level level) {
    appender.start();
    for (LoggerConfig logger : loggers()) {
      previousLevels.put(logger, logger.getLevel());
      logger.addAppender(appender, Level.ALL, null);
      if (logger.getLevel().isMoreSpecificThan(level)) {
        logger.setLevel(level);
      }
    }
    context.updateLoggers();
  }

  private java.util.Set<LoggerConfig> loggers() {
    Configuration config = context.getConfiguration();
    var all = new java.util.LinkedHashSet<LoggerConfig>(config.getLoggers().values());
    all.add(config.getRootLogger());
    return all;
  }

  /** Starts capturing at {@code level} (loggers configured coarser are lowered to it meanwhile). */
  static LogCapture start(Level level) {
    return new LogCapture(level);
  }

  /** The captured events: level, logger, message and stack trace, one string each. */
  List<String> events() {
    return List.copyOf(events);
  }

  /** All captured text. */
  String text() {
    return String.join("\n", events);
  }

  @Override
  public void close() {
    for (LoggerConfig logger : loggers()) {
      logger.removeAppender(appender.getName());
      Level previous = previousLevels.get(logger);
      if (previous != null) {
        logger.setLevel(previous);
      }
    }
    context.updateLoggers();
    appender.stop();
  }

  private static final class Appender extends AbstractAppender {
    private final List<String> events;

    Appender(List<String> events) {
      super("riverbed-log-capture-" + System.identityHashCode(events), null, null, true, Property.EMPTY_ARRAY);
      this.events = events;
    }

    @Override
    public void append(LogEvent event) {
      StringBuilder out = new StringBuilder().append(event.getLevel()).append(' ').append(event.getLoggerName())
          .append(' ').append(event.getMessage().getFormattedMessage());
      if (event.getThrown() != null) {
        StringWriter trace = new StringWriter();
        event.getThrown().printStackTrace(new PrintWriter(trace));
        out.append('\n').append(trace);
      }
      events.add(out.toString());
    }
  }
}
