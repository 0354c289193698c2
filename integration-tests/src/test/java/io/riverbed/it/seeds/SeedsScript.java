package io.riverbed.it.seeds;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The seeds' Spark code as typed into a spark-shell: the resource {@code seeds/seeds.scala}, cut into
 * its numbered steps at each {@code //// name: title} header, and the standard input that pastes the
 * helpers and then every step, each after a line printing its marker.
 */
final class SeedsScript {
  static final String STEP_MARKER = "=== STEP ";
  static final String STEP_OK = "=== STEP OK";
  static final String END_MARKER = "=== END OF SEEDS";
  private static final Pattern HEADER = Pattern.compile("^//// ([a-z0-9-]+): (.+)$");

  /** One step: its name (unique in the script), its title and its Scala code. */
  record Step(String name, String title, String code) {}

  private final List<Step> steps;
  private final String helpers;

  private SeedsScript(List<Step> steps, String helpers) {
    this.steps = steps;
    this.helpers = helpers;
  }

  static SeedsScript load() {
    String script = resource("seeds/seeds.scala");
    var steps = new ArrayList<Step>();
    String name = null;
    String title = null;
    var code = new StringBuilder();
    for (String line : script.split("\n", -1)) {
      Matcher header = HEADER.matcher(line);
      if (header.matches()) {
        if (name != null) {
          steps.add(new Step(name, title, code.toString().strip()));
        }
        name = header.group(1);
        title = header.group(2);
        code.setLength(0);
      } else if (name != null) {
        code.append(line).append('\n');
      }
    }
    if (name == null) {
      throw new IllegalStateException("seeds/seeds.scala holds no '//// name: title' step header");
    }
    steps.add(new Step(name, title, code.toString().strip()));
    if (steps.stream().map(Step::name).distinct().count() != steps.size()) {
      throw new IllegalStateException("seeds/seeds.scala repeats a step name: " + steps.stream().map(Step::name).toList());
    }
    return new SeedsScript(List.copyOf(steps), resource("seeds/shell-helpers.scala"));
  }

  List<Step> steps() {
    return steps;
  }

  /**
   * Writes the helpers and each step into {@code dir} and returns what is typed into the shell: the
   * run's {@code seedsRoot} and {@code metastoreUri}, a paste of the helpers, then for each step its
   * marker and a paste of its file (which ends by printing {@value #STEP_OK}), and the end marker.
   */
  String stdin(Path dir, String seedsRoot, String metastoreUri) throws IOException {
    Files.createDirectories(dir);
    var typed = new StringBuilder();
    typed.append("val seedsRoot = ").append(scalaString(seedsRoot)).append('\n');
    typed.append("val metastoreUri = ").append(scalaString(metastoreUri)).append('\n');
    Path helperFile = dir.resolve("shell-helpers.scala");
    Files.writeString(helperFile, helpers, StandardCharsets.UTF_8);
    typed.append(":paste ").append(helperFile).append('\n');
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      Path file = dir.resolve(String.format("%02d-%s.scala", i + 1, step.name()));
      Files.writeString(file, step.code() + "\nprintln(" + scalaString(STEP_OK) + ")\n", StandardCharsets.UTF_8);
      typed.append("println(").append(scalaString(STEP_MARKER + step.name())).append(")\n");
      typed.append(":paste ").append(file).append('\n');
    }
    typed.append("println(").append(scalaString(END_MARKER)).append(")\n");
    typed.append(":quit\n");
    return typed.toString();
  }

  private static String scalaString(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String resource(String name) {
    try (InputStream in = SeedsScript.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("test resource " + name + " not found");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
