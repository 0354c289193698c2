package io.riverbed.flink.job;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code flink run} and {@code flink-run.sh} command lines written in a recipe or a docs page
 * (shell comments and {@code \}-continued lines included), split into words as a shell would
 * (quotes, no expansion). Synopsis lines with a {@code ...} placeholder are skipped.
 */
final class RecipeCommands {
  /** One command: the words from {@code flink} / {@code flink-run.sh} on, and the line it starts on. */
  record Command(int line, List<String> words) {
    boolean isFlinkRunScript() {
      return words.get(0).endsWith("flink-run.sh");
    }
  }

  private RecipeCommands() {}

  static List<Command> find(String text) {
    String[] lines = text.split("\n", -1);
    List<Command> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String line = uncomment(lines[i]);
      int start = commandStart(line);
      if (start < 0) {
        continue;
      }
      StringBuilder joined = new StringBuilder(line.substring(start));
      int first = i;
      while (joined.toString().endsWith("\\") && i + 1 < lines.length) {
        joined.setLength(joined.length() - 1);
        joined.append(' ').append(uncomment(lines[++i]));
      }
      List<String> words = words(joined.toString());
      if (words.stream().noneMatch(w -> w.contains("..."))) {
        out.add(new Command(first + 1, words));
      }
    }
    return out;
  }

  private static String uncomment(String line) {
    String t = line.strip();
    while (t.startsWith("#")) {
      t = t.substring(1).strip();
    }
    return t.startsWith("$ ") ? t.substring(2) : t;
  }

  /** Where a command starts in the line: at a word ending in flink-run.sh, or at 'flink' / '.../bin/flink' followed by 'run'. */
  private static int commandStart(String line) {
    List<String> ws = List.of(line.split("\\s+"));
    int offset = 0;
    for (int w = 0; w < ws.size(); w++) {
      String word = ws.get(w);
      int at = line.indexOf(word, offset);
      offset = at + word.length();
      if (word.endsWith("flink-run.sh") && w == 0) {
        return at;
      }
      if ((word.equals("flink") || word.endsWith("/bin/flink")) && w + 1 < ws.size() && ws.get(w + 1).equals("run")
          && (w == 0 || ws.get(w - 1).equals("exec"))) {
        return at;
      }
    }
    return -1;
  }

  /** Shell words: whitespace-separated, single and double quotes grouping, an unquoted # word ending the line. */
  static List<String> words(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          out.add(word.toString());
          word = null;
        }
      } else if (c == '#' && word == null) {
        break;
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (word != null) {
      out.add(word.toString());
    }
    return out;
  }
}
