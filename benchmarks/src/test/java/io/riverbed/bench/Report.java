package io.riverbed.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * What a benchmark prints: Markdown lines to stdout and, for docs/PERFORMANCE.md, to
 * {@code <bench.dir>/<name>.md}, opening with the date and the machine.
 */
public final class Report {
  private final StringBuilder text = new StringBuilder();
  private final Path file;

  public Report(Path dir, String name) {
    this.file = dir.resolve(name + ".md");
    Runtime rt = Runtime.getRuntime();
    line("## " + name);
    line("");
    line("- date: " + ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME));
    line(String.format(Locale.ROOT, "- machine: %s, %d cores, %.0f GB RAM, JVM %s %s, max heap %d MB",
        host(), rt.availableProcessors(), totalMemoryGb(), System.getProperty("java.vm.name"),
        System.getProperty("java.version"), rt.maxMemory() >> 20));
    line(String.format(Locale.ROOT, "- load average at start: %.1f (other processes share these cores)", loadAverage()));
  }

  /** The 1-minute system load average, to judge how busy the shared machine was. */
  public static double loadAverage() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  public Report line(String s) {
    text.append(s).append('\n');
    System.out.println("[bench] " + s);
    System.out.flush();
    return this;
  }

  public Report format(String format, Object... args) {
    return line(String.format(Locale.ROOT, format, args));
  }

  public Path write() {
    line(String.format(Locale.ROOT, "- load average at end: %.1f", loadAverage()));
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text.toString());
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown host";
    }
  }

  private static double totalMemoryGb() {
    var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getTotalMemorySize() / (1024.0 * 1024 * 1024);
    }
    return Double.NaN;
  }
}
