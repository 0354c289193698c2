package io.riverbed.format.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code docs/OPTIONS.md}, the option reference: hand-written text around generated sections, one
 * per module. Each module renders its own section from its typed options classes and checks it
 * here, so no module needs to see another's classes (the dependency direction stays one way).
 * A section is the text between {@code <!-- BEGIN GENERATED name -->} and
 * {@code <!-- END GENERATED name -->}.
 *
 * <p>{@link #check} fails with the command that regenerates the page when a section differs from
 * what the code renders; with {@code -Driverbed.docs.update=true} it rewrites the section instead.
 */
public final class OptionsPage {
  /** Relative to a module's folder, where Maven runs its tests. */
  public static final Path PAGE = Path.of("..", "docs", "OPTIONS.md");
  public static final String UPDATE_PROPERTY = "riverbed.docs.update";
  public static final String REGENERATE_COMMAND = "mvn -B -ntp -q -pl shared-format,flink-writer,spark-reader,hive-sync,hive-input,admin -am test "
      + "-Dtest='*OptionReferenceTest' -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE_PROPERTY + "=true";

  private OptionsPage() {}

  /**
   * Checks that the page's section {@code name} is {@code generated}, or rewrites it when
   * {@value #UPDATE_PROPERTY} is true.
   *
   * @throws AssertionError naming the regenerate command when the section is stale or missing
   */
  public static void check(String name, String generated) {
    String begin = "<!-- BEGIN GENERATED " + name + " (do not edit: see the top of this page) -->\n";
    String end = "<!-- END GENERATED " + name + " -->\n";
    String page = read();
    int from = page.indexOf(begin);
    int to = from < 0 ? -1 : page.indexOf(end, from);
    String current = from < 0 || to < 0 ? null : page.substring(from + begin.length(), to);
    if (generated.equals(current)) {
      return;
    }
    if (Boolean.getBoolean(UPDATE_PROPERTY)) {
      String updated = current == null
          ? page + (page.endsWith("\n") ? "\n" : "\n\n") + begin + generated + end
          : page.substring(0, from + begin.length()) + generated + page.substring(to);
      write(updated);
      return;
    }
    throw new AssertionError("docs/OPTIONS.md is stale: its generated section '" + name + "' "
        + (current == null ? "is missing" : "differs from what the options classes describe")
        + "; run\n  " + REGENERATE_COMMAND + "\nfrom the repository root and commit docs/OPTIONS.md"
        + (current == null ? "" : "\nfirst difference: " + firstDifference(current, generated)));
  }

  /** The text of every generated section of the page, markers left out: what the options classes render. */
  public static String generatedSections() {
    StringBuilder out = new StringBuilder();
    String page = read();
    int from = page.indexOf("<!-- BEGIN GENERATED ");
    while (from >= 0) {
      int to = page.indexOf("<!-- END GENERATED ", from);
      if (to < 0) {
        throw new IllegalStateException("docs/OPTIONS.md: a generated section has no END marker");
      }
      out.append(page, page.indexOf('\n', from) + 1, to);
      from = page.indexOf("<!-- BEGIN GENERATED ", to);
    }
    return out.toString();
  }

  /** A Markdown table of {@code key -> {default, description}} maps, sorted by key. */
  public static String optionTable(Map<String, String[]> descriptions) {
    StringBuilder out = new StringBuilder("| option | default | meaning |\n|---|---|---|\n");
    new TreeMap<>(descriptions).forEach((key, d) -> out.append(row(List.of("`" + key + "`", value(d[0]), d[1]))));
    return out.toString();
  }

  /**
   * One Markdown table row; pipes and, outside code spans, {@code <} (read as HTML) in cells are
   * escaped (a code span shows an entity as written, so there {@code <} stays).
   */
  public static String row(List<String> cells) {
    StringBuilder out = new StringBuilder("|");
    for (String c : cells) {
      out.append(' ').append(escapeHtmlOutsideCode(c.replace("|", "\\|").replace("\n", " "))).append(" |");
    }
    return out.append('\n').toString();
  }

  private static String escapeHtmlOutsideCode(String cell) {
    StringBuilder out = new StringBuilder();
    boolean code = false;
    for (char ch : cell.toCharArray()) {
      code ^= ch == '`';
      if (ch == '<' && !code) {
        out.append("&lt;");
      } else {
        out.append(ch);
      }
    }
    return out.toString();
  }

  /** A default as a cell: empty stays empty, placeholders like {@code <job parallelism>} in italics. */
  public static String value(String v) {
    if (v == null || v.isEmpty()) {
      return "";
    }
    return v.startsWith("<") && v.endsWith(">") ? "*" + v.substring(1, v.length() - 1) + "*" : "`" + v + "`";
  }

  /** Text in a fenced code block. */
  public static String codeBlock(String text) {
    return "```\n" + (text.endsWith("\n") ? text : text + "\n") + "```\n";
  }

  private static String firstDifference(String current, String generated) {
    String[] a = current.split("\n", -1);
    String[] b = generated.split("\n", -1);
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String x = i < a.length ? a[i] : "<end>";
      String y = i < b.length ? b[i] : "<end>";
      if (!x.equals(y)) {
        return "line " + (i + 1) + " of the section\n  page: " + x + "\n  code: " + y;
      }
    }
    return "none";
  }

  private static String read() {
    try {
      return Files.exists(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(String text) {
    try {
      Files.writeString(PAGE, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
