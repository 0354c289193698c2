package io.riverbed.flink.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into statements at {@code ;} outside quotes ({@code '...'}, {@code "..."},
 * backticks) and comments ({@code --} to end of line, {@code /* ... *}{@code /}). Each statement
 * keeps the line it starts on, for error messages; comment-only pieces are dropped. Hints
 * ({@code /*+ OPTIONS(...) *}{@code /}) are kept in their statement.
 */
public final class SqlStatements {
  private SqlStatements() {}

  public record Statement(int line, String sql) {}

  public static List<Statement> split(String script) {
    List<Statement> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int line = 1;
    int startLine = -1;
    int i = 0;
    int n = script.length();
    while (i < n) {
      char c = script.charAt(i);
      if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
        int end = script.indexOf('\n', i);
        i = end < 0 ? n : end;
        continue;
      }
      if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
        int end = script.indexOf("*/", i + 2);
        String comment = script.substring(i, end < 0 ? n : end + 2);
        line += (int) comment.chars().filter(ch -> ch == '\n').count();
        current.append(comment.startsWith("/*+") ? comment : " ");
        i += comment.length();
        continue;
      }
      if (c == '\'' || c == '"' || c == '`') {
        int j = i + 1;
        while (j < n) {
          if (script.charAt(j) == c) {
            if (j + 1 < n && script.charAt(j + 1) == c) {
              j += 2; // doubled quote inside a literal
              continue;
            }
            break;
          }
          j++;
        }
        if (j >= n) {
          throw new IllegalArgumentException("unterminated " + c + " quote starting on line " + line);
        }
        String quoted = script.substring(i, j + 1);
        if (startLine < 0) {
          startLine = line;
        }
        current.append(quoted);
        line += (int) quoted.chars().filter(ch -> ch == '\n').count();
        i = j + 1;
        continue;
      }
      if (c == ';') {
        add(out, current, startLine);
        current.setLength(0);
        startLine = -1;
        i++;
        continue;
      }
      if (c == '\n') {
        line++;
      } else if (!Character.isWhitespace(c) && startLine < 0) {
        startLine = line;
      }
      current.append(c);
      i++;
    }
    add(out, current, startLine);
    return out;
  }

  private static void add(List<Statement> out, StringBuilder sql, int line) {
    String s = sql.toString().strip();
    if (!s.isEmpty()) {
      out.add(new Statement(line, s));
    }
  }
}
