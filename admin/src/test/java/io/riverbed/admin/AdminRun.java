package io.riverbed.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/** One run of {@code riverbed-admin} in this JVM through picocli, stdout and stderr captured. */
record AdminRun(int status, String out, String err) {
  static AdminRun run(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = AdminCommand.commandLine(environment);
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int status = command.execute(args);
    return new AdminRun(status, out.toString(), err.toString());
  }

  static AdminRun run(String... args) {
    return run(Map.of(), args);
  }

  List<String> lines() {
    return out.lines().toList();
  }

  JsonNode json() {
    try {
      return new ObjectMapper().readTree(out);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON:\n" + out, e);
    }
  }

  @Override
  public String toString() {
    return "status " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
