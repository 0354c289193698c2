package io.riverbed.it.seeds;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one spark-shell run of {@link SeedsScript} said, step by step, in the form two runs are compared
 * in: for each step whether it finished ({@link SeedsScript#STEP_OK}), the result lines the helpers
 * printed ({@code %% column|row|value ...}) with the run's folder as {@code <root>}, each commit time
 * as {@code <instant N>} (N its rank among the run's commit times printed, so the same commit of each run
 * gets the same name), and the shell's first error line when it failed.
 */
final class ShellTranscript {
  private static final String RESULT = "%% ";
  /** A commit time: 17 digits, not within a longer number or a decimal fraction. */
  private static final Pattern INSTANT = Pattern.compile("(?<![\\d.])\\d{17}(?!\\d)");
  private static final Pattern ERROR = Pattern.compile(
      "^(?:<pastie>:\\d+: error: .*|[a-zA-Z_$][\\w$.]*(?:Exception|Error)(?::.*)?|Caused by: .*)$");

  /** One step as the comparison sees it; {@code error} is for the report only. */
  record Outcome(boolean finished, List<String> results, String error) {
    /** The status and results, which must be equal in both runs. */
    String compared() {
      return (finished ? "finished" : "failed") + (results.isEmpty() ? "" : "\n  " + String.join("\n  ", results));
    }

    String report() {
      return compared() + (finished ? "" : "\n  error: " + error);
    }
  }

  private ShellTranscript() {}

  /**
   * Reads the outcome of each of {@code steps} from the shell's {@code stdout}; {@code extra} are
   * further result lines per pseudo step (the metastore's tables), masked with the same commit names.
   */
  static Map<String, Outcome> parse(String stdout, List<String> steps, String root, Map<String, List<String>> extra) {
    var raw = new LinkedHashMap<String, List<String>>();
    List<String> current = null;
    for (String line : stdout.split("\n", -1)) {
      if (line.startsWith(SeedsScript.STEP_MARKER) && !line.equals(SeedsScript.STEP_OK)) {
        current = new ArrayList<>();
        raw.put(line.substring(SeedsScript.STEP_MARKER.length()).trim(), current);
      } else if (line.equals(SeedsScript.END_MARKER)) {
        current = null;
      } else if (current != null) {
        current.add(line);
      }
    }
    var instants = new TreeSet<String>();
    raw.values().forEach(lines -> lines.stream().filter(l -> l.startsWith(RESULT)).forEach(l -> collect(l, instants)));
    extra.values().forEach(lines -> lines.forEach(l -> collect(l, instants)));
    var ranks = new LinkedHashMap<String, String>();
    instants.forEach(i -> ranks.put(i, "<instant " + (ranks.size() + 1) + ">"));

    var outcomes = new LinkedHashMap<String, Outcome>();
    for (String step : steps) {
      List<String> lines = raw.get(step);
      if (lines == null) {
        outcomes.put(step, new Outcome(false, List.of(), "the shell never reached the step"));
        continue;
      }
      boolean finished = lines.contains(SeedsScript.STEP_OK);
      List<String> results = lines.stream().filter(l -> l.startsWith(RESULT))
          .map(l -> mask(l.substring(RESULT.length()), root, ranks)).toList();
      String error = lines.stream().map(String::strip).filter(l -> ERROR.matcher(l).matches()).findFirst()
          .orElse(finished ? "" : "(no error line; see the shell's output)");
      outcomes.put(step, new Outcome(finished, results, mask(error, root, ranks)));
    }
    extra.forEach((step, lines) -> outcomes.put(step,
        new Outcome(true, lines.stream().map(l -> mask(l, root, ranks)).toList(), "")));
    return outcomes;
  }

  private static void collect(String line, TreeSet<String> instants) {
    Matcher m = INSTANT.matcher(line);
    while (m.find()) {
      instants.add(m.group());
    }
  }

  private static String mask(String line, String root, Map<String, String> ranks) {
    Matcher m = INSTANT.matcher(line.replace(root, "<root>"));
    var out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(ranks.getOrDefault(m.group(), "<instant>")));
    }
    m.appendTail(out);
    return out.toString();
  }
}
