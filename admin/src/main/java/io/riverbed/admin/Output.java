package io.riverbed.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;

/**
 * Where a command prints its result: aligned tables and lines for people, or, with {@code --json},
 * exactly one JSON document (records and maps as Jackson writes them) for scripts.
 */
final class Output {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final PrintWriter out;
  private final boolean json;

  Output(PrintWriter out, boolean json) {
    this.out = out;
    this.json = json;
  }

  boolean isJson() {
    return json;
  }

  /** Prints {@code document} as JSON. */
  void json(Object document) {
    try {
      out.println(JSON.writeValueAsString(document));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the result as JSON: " + e.getMessage(), e);
    }
    out.flush();
  }

  /** Prints {@code document} as JSON with {@code --json}, else the line {@code text}. */
  void result(Object document, String text) {
    if (json) {
      json(document);
    } else {
      line(text);
    }
  }

  /** Prints a table (text output only). */
  void table(TextTable<?> table) {
    table.print(out);
  }

  /** Prints one line of text output. */
  void line(String text) {
    out.println(text);
    out.flush();
  }
}
