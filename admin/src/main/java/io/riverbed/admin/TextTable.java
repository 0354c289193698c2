package io.riverbed.admin;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Rows printed as an aligned table: a header line, then one line per row, columns separated by two
 * spaces; numbers are right-aligned, everything else left-aligned, an absent value is {@code -}.
 *
 * @param <T> the row type
 */
final class TextTable<T> {
  private record Column<T>(String header, Function<T, Object> value) {}

  private final List<T> rows;
  private final List<Column<T>> columns = new ArrayList<>();

  private TextTable(List<T> rows) {
    this.rows = rows;
  }

  static <T> TextTable<T> of(List<T> rows) {
    return new TextTable<>(rows);
  }

  TextTable<T> column(String header, Function<T, Object> value) {
    columns.add(new Column<>(header, value));
    return this;
  }

  void print(PrintWriter out) {
    List<String[]> cells = new ArrayList<>();
    boolean[] numeric = new boolean[columns.size()];
    java.util.Arrays.fill(numeric, true);
    for (T row : rows) {
      String[] line = new String[columns.size()];
      for (int c = 0; c < columns.size(); c++) {
        Object v = columns.get(c).value().apply(row);
        line[c] = v == null ? "-" : v.toString();
        numeric[c] &= v == null || v instanceof Number;
      }
      cells.add(line);
    }
    int[] width = new int[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      width[c] = columns.get(c).header().length();
      for (String[] line : cells) {
        width[c] = Math.max(width[c], line[c].length());
      }
    }
    String[] header = columns.stream().map(Column::header).toArray(String[]::new);
    out.println(format(header, width, new boolean[columns.size()]));
    for (String[] line : cells) {
      out.println(format(line, width, numeric));
    }
    out.flush();
  }

  private static String format(String[] line, int[] width, boolean[] right) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < line.length; c++) {
      if (c > 0) {
        b.append("  ");
      }
      String pad = " ".repeat(width[c] - line[c].length());
      b.append(right[c] ? pad + line[c] : (c == line.length - 1 ? line[c] : line[c] + pad));
    }
    return b.toString();
  }
}
