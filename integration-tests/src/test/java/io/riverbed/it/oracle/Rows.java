package io.riverbed.it.oracle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A table's rows in a canonical, comparable form: one JSON object per row, top-level keys in
 * canonical order (the five Hudi meta columns first, in Hudi's order, then the other columns
 * sorted by name; struct fields keep schema order), nulls written out, timestamps as ISO-8601 UTC
 * with microseconds, and the lines sorted. Equal tables give equal {@code Rows}, whatever engine
 * or file layout produced them. Duplicated rows are kept (a multiset), so duplicates show up.
 */
public final class Rows {

  /** Hudi's meta columns, in the order Hudi writes them. */
  public static final List<String> META_COLUMNS = List.of(
      "_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
      "_hoodie_partition_path", "_hoodie_file_name");

  /** Meta columns whose values depend on file layout, not on the logical content of a table. */
  public static final List<String> PHYSICAL_META_COLUMNS = List.of("_hoodie_commit_seqno", "_hoodie_file_name");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DIFF_LINES_SHOWN = 10;

  private final List<String> lines;

  private Rows(List<String> sortedLines) {
    this.lines = List.copyOf(sortedLines);
  }

  /** Canonicalises JSON object lines (any key order) into {@code Rows}. */
  public static Rows ofJsonLines(Collection<String> jsonLines) {
    var out = new ArrayList<String>(jsonLines.size());
    for (String line : jsonLines) {
      out.add(render(canonical(parse(line))));
    }
    out.sort(null);
    return new Rows(out);
  }

  public static Rows ofNodes(Collection<ObjectNode> rows) {
    var out = new ArrayList<String>(rows.size());
    for (ObjectNode row : rows) {
      out.add(render(canonical(row)));
    }
    out.sort(null);
    return new Rows(out);
  }

  public static Rows readJsonLines(Path file) {
    try {
      return ofJsonLines(Files.readAllLines(file, StandardCharsets.UTF_8).stream()
          .filter(l -> !l.isBlank()).toList());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read rows from " + file, e);
    }
  }

  public void writeJsonLines(Path file) {
    try {
      Files.write(file, lines, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write rows to " + file, e);
    }
  }

  /** The canonical column order for a set of top-level column names. */
  public static List<String> canonicalColumnOrder(Collection<String> columns) {
    var ordered = new ArrayList<String>();
    for (String meta : META_COLUMNS) {
      if (columns.contains(meta)) {
        ordered.add(meta);
      }
    }
    columns.stream().filter(c -> !META_COLUMNS.contains(c)).sorted().forEach(ordered::add);
    return ordered;
  }

  public List<String> lines() {
    return lines;
  }

  public int size() {
    return lines.size();
  }

  public boolean isEmpty() {
    return lines.isEmpty();
  }

  public List<ObjectNode> nodes() {
    return lines.stream().map(Rows::parse).toList();
  }

  /** The rows without the given top-level columns. */
  public Rows without(Collection<String> columns) {
    return map(node -> {
      node.remove(columns);
      return node;
    });
  }

  public Rows without(String... columns) {
    return without(Arrays.asList(columns));
  }

  /** The rows without the five meta columns. */
  public Rows withoutMetaColumns() {
    return without(META_COLUMNS);
  }

  /** The rows without meta columns that depend on file layout (seqno, file name). */
  public Rows withoutPhysicalMetaColumns() {
    return without(PHYSICAL_META_COLUMNS);
  }

  /** The rows with only the given top-level columns. */
  public Rows only(Collection<String> columns) {
    return map(node -> {
      node.retain(columns);
      return node;
    });
  }

  public Rows only(String... columns) {
    return only(Arrays.asList(columns));
  }

  public Rows filter(Predicate<ObjectNode> keep) {
    return new Rows(lines.stream().filter(l -> keep.test(parse(l))).toList());
  }

  /** Distinct text values of one top-level column, sorted; JSON null and absent become {@code null}, first. */
  public Set<String> values(String column) {
    return lines.stream().map(Rows::parse).map(n -> n.get(column))
        .map(v -> v == null || v.isNull() ? null : v.asText())
        .distinct()
        .sorted(java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))
        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
  }

  private Rows map(java.util.function.UnaryOperator<ObjectNode> f) {
    var out = new ArrayList<String>(lines.size());
    for (String line : lines) {
      out.add(render(f.apply(parse(line))));
    }
    out.sort(null);
    return new Rows(out);
  }

  /** Multiset difference: these rows minus one occurrence of each row of {@code other}. */
  public Rows minus(Rows other) {
    var counts = new HashMap<String, Integer>();
    for (String l : other.lines) {
      counts.merge(l, 1, Integer::sum);
    }
    var out = new ArrayList<String>();
    for (String l : lines) {
      Integer c = counts.get(l);
      if (c != null && c > 0) {
        counts.put(l, c - 1);
      } else {
        out.add(l);
      }
    }
    return new Rows(out);
  }

  /** A readable difference, or the empty string if both are equal. */
  public String diff(Rows expected) {
    if (equals(expected)) {
      return "";
    }
    var counts = new HashMap<String, Integer>();
    for (String l : lines) {
      counts.merge(l, 1, Integer::sum);
    }
    var missing = new ArrayList<String>();
    for (String l : expected.lines) {
      if (counts.merge(l, -1, Integer::sum) < 0) {
        missing.add(l);
      }
    }
    var unexpected = new ArrayList<String>();
    for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(counts).entrySet()) {
      for (int i = 0; i < e.getValue(); i++) {
        unexpected.add(e.getKey());
      }
    }
    var sb = new StringBuilder();
    sb.append("actual has ").append(size()).append(" rows, expected ").append(expected.size())
        .append("; missing ").append(missing.size()).append(", unexpected ").append(unexpected.size());
    appendLines(sb, "missing (expected, not found)", missing);
    appendLines(sb, "unexpected (found, not expected)", unexpected);
    return sb.toString();
  }

  /** Throws an {@link AssertionError} with a readable diff unless these rows equal {@code expected}. */
  public void assertSameAs(Rows expected, String what) {
    String diff = diff(expected);
    if (!diff.isEmpty()) {
      throw new AssertionError(what + ": " + diff);
    }
  }

  private static void appendLines(StringBuilder sb, String title, List<String> rows) {
    if (rows.isEmpty()) {
      return;
    }
    sb.append("\n  ").append(title).append(':');
    rows.stream().limit(DIFF_LINES_SHOWN).forEach(r -> sb.append("\n    ").append(r));
    if (rows.size() > DIFF_LINES_SHOWN) {
      sb.append("\n    ... ").append(rows.size() - DIFF_LINES_SHOWN).append(" more");
    }
  }

  private static ObjectNode canonical(ObjectNode node) {
    var names = new ArrayList<String>();
    node.fieldNames().forEachRemaining(names::add);
    var out = JSON.createObjectNode();
    for (String name : canonicalColumnOrder(names)) {
      out.set(name, node.get(name));
    }
    return out;
  }

  static ObjectNode parse(String line) {
    try {
      JsonNode node = JSON.readTree(line);
      if (!(node instanceof ObjectNode object)) {
        throw new IllegalArgumentException("not a JSON object: " + line);
      }
      return object;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + line, e);
    }
  }

  private static String render(ObjectNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Rows other && lines.equals(other.lines);
  }

  @Override
  public int hashCode() {
    return lines.hashCode();
  }

  @Override
  public String toString() {
    return size() + " rows" + (lines.isEmpty() ? "" : ", first " + lines.get(0));
  }
}
