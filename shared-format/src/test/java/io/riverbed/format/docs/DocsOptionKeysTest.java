package io.riverbed.format.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code hoodie.*} and {@code riverbed.*} key written in {@code deploy/}, {@code docs/} and
 * the README is one the code defines. Hudi option keys are known when the generated sections of
 * docs/OPTIONS.md name them: those sections are what the typed options classes of every module
 * render, and each module's {@code *OptionReferenceTest} fails when they differ, so they are the
 * code's list without this module seeing the engines' classes. {@code riverbed.*} keys (system
 * properties of the build and tests) are known when a Java source holds them as a string literal.
 */
class DocsOptionKeysTest {
  static final Path ROOT = Path.of("..");
  /** A key: not inside a longer name (io.riverbed.x, a path, riverbed-read), but as a -D system property. */
  static final Pattern KEY = Pattern.compile("(?:(?<![A-Za-z0-9_.$/-])|(?<=-D))(hoodie|riverbed)\\.[A-Za-z0-9_.-]*[A-Za-z0-9_]");
  /**
   * Keys of Apache Hudi that Riverbed does not read, named where the docs compare with Hudi, each
   * with why it is mentioned.
   */
  static final Map<String, String> HUDI_KEYS_NAMED_FOR_COMPARISON = Map.ofEntries(
      Map.entry("hoodie.write.auto.upgrade", "Hudi 1.x writers' switch that keeps them from upgrading a version 6 "
          + "table to 8, named where TROUBLESHOOTING tells mixed fleets to set it"),
      Map.entry("hoodie.write.table.version", "Hudi 1.x writers' table version, named where TROUBLESHOOTING tells "
          + "mixed fleets to keep version 6"),
      Map.entry("hoodie.metadata.enable", "Hudi writers' metadata-table switch: Riverbed turns the metadata table off as a Hudi "
          + "writer with hoodie.metadata.enable=false does (MIGRATING_FROM_HUDI, COMPATIBILITY, PERFORMANCE)"),
      Map.entry("hoodie.query.as.ro.table", "the serde (or table) property a Hive sync registers on a MERGE_ON_READ table's _ro "
          + "table, not an option; Spark's RiverbedCatalog reads it (HIVE_SYNC, clusters/SPARK)"),
      Map.entry("hoodie.datasource.hive_sync", "the prefix of Hudi's sync option names, which hive-sync takes any option under "
          + "(HIVE_SYNC, deploy/README)"),
      Map.entry("hoodie.meta.sync", "the prefix of Hudi's generic sync option names, which the sync takes options under "
          + "(HIVE_SYNC, MIGRATING_FROM_HUDI)"),
      Map.entry("hoodie.datasource.hive_sync.filter_pushdown_enabled", "a Hudi sync option Riverbed does not implement, named "
          + "where HIVE_SYNC lists the differences"),
      Map.entry("hoodie.datasource.hive_sync.password", "Hudi's jdbc-mode sync password, which hms mode does not read; named where "
          + "HIVE_SYNC and OPTIONS say such values are redacted"),
      Map.entry("hoodie.datasource.hive_sync.jdbcurl", "Hudi's jdbc-mode sync URL, which hms mode does not read; named where "
          + "HIVE_SYNC and OPTIONS say a password in it is redacted"),
      Map.entry("hoodie.combine.before.insert", "Hudi's switch that de-duplicates insert batches, named where MIGRATING_FROM_HUDI "
          + "says Riverbed's Spark writer always does"),
      Map.entry("hoodie.schema.on.read.enable", "Hudi's schema-on-read switch, which Spark SQL's ALTER TABLE reads (spark-reader "
          + "TableAlteration) before it changes a column's type; not a write option (MIGRATING_FROM_HUDI)"),
      Map.entry("hoodie.incremental.use.database", "Hudi's switch for database-qualified incremental pull keys in Hive, which "
          + "hive-input does not read; named where HIVE_SYNC lists what it does not do"));

  /**
   * A key of the generated sections with a placeholder segment, {@code hoodie.<t>.consume.mode}:
   * the docs write it with a table's name in the placeholder's place.
   */
  static final Pattern TEMPLATE = Pattern.compile("`((?:hoodie|riverbed)\\.[A-Za-z0-9_.<>-]*<[a-z]+>[A-Za-z0-9_.<>-]*)`");

  @Test
  void everyHoodieAndRiverbedKeyInDocsAndDeployExistsInTheCode() throws IOException {
    Set<String> known = knownKeys();
    List<Pattern> templates = templates(OptionsPage.generatedSections());
    List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    for (String dir : List.of("docs", "deploy")) {
      try (Stream<Path> walk = Files.walk(ROOT.resolve(dir))) {
        walk.filter(Files::isRegularFile).sorted().forEach(files::add);
      }
    }
    List<String> unknown = new ArrayList<>();
    int checked = 0;
    for (Path file : files) {
      String text = readText(file);
      if (text == null) {
        continue;
      }
      for (String key : keys(text)) {
        checked++;
        if (!known.contains(key) && !HUDI_KEYS_NAMED_FOR_COMPARISON.containsKey(key)
            && templates.stream().noneMatch(t -> t.matcher(key).matches())) {
          unknown.add(ROOT.relativize(file) + ": " + key);
        }
      }
    }
    assertThat(checked).as("keys found in docs and deploy").isGreaterThan(100);
    assertThat(unknown).as("keys that no options class or source defines").isEmpty();
  }

  @Test
  void aKeyWithAPlaceholderStandsForTheKeyWithANameInItsPlace() {
    List<Pattern> templates = templates("| `hoodie.<t>.consume.mode` | `SNAPSHOT` | ... |");
    assertThat(templates).hasSize(1);
    assertThat(templates.get(0).matcher("hoodie.trips.consume.mode").matches()).isTrue();
    assertThat(templates.get(0).matcher("hoodie.trips.consume.modes").matches()).isFalse();
    assertThat(templates.get(0).matcher("hoodie.consume.mode").matches()).isFalse();
  }

  @Test
  void aMisspeltKeyIsReported() throws IOException {
    Set<String> known = knownKeys();
    assertThat(keys("set `hoodie.datasource.query.typ` and -Driverbed.docs.updat=true, not io.riverbed.flink.job"))
        .containsExactly("hoodie.datasource.query.typ", "riverbed" + ".docs.updat") // split: a literal would count as defined
        .noneMatch(known::contains);
    assertThat(keys("{\"name\":\"r\",\"namespace\":\"hoodie.trips\"} `hoodie.datasource.query.type`"))
        .containsExactly("hoodie.datasource.query.type").allMatch(known::contains);
  }

  /** The keys in a text, leaving out Avro namespaces (hoodie.<table> is Hudi's record namespace, not an option). */
  static List<String> keys(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = KEY.matcher(text);
    while (m.find()) {
      if (!text.substring(Math.max(0, m.start() - 14), m.start()).replace(" ", "").endsWith("\"namespace\":\"")) {
        out.add(m.group());
      }
    }
    return out;
  }

  /** The placeholder keys of {@code generated}, each as the pattern of the names it stands for. */
  static List<Pattern> templates(String generated) {
    List<Pattern> out = new ArrayList<>();
    Matcher m = TEMPLATE.matcher(generated);
    while (m.find()) {
      String[] parts = m.group(1).split("<[a-z]+>", -1);
      StringBuilder regex = new StringBuilder();
      for (int i = 0; i < parts.length; i++) {
        regex.append(i == 0 ? "" : "[A-Za-z0-9_]+").append(Pattern.quote(parts[i]));
      }
      out.add(Pattern.compile(regex.toString()));
    }
    return out;
  }

  static Set<String> knownKeys() throws IOException {
    Set<String> known = new HashSet<>(keys(OptionsPage.generatedSections()));
    Pattern literal = Pattern.compile("\"(riverbed\\.[A-Za-z0-9_.-]*[A-Za-z0-9_])\"");
    try (Stream<Path> walk = Files.walk(ROOT)) {
      for (Path source : walk.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/")).toList()) {
        Matcher m = literal.matcher(Files.readString(source));
        while (m.find()) {
          known.add(m.group(1));
        }
      }
    }
    return known;
  }

  /** A file's text, or null for a binary file. */
  private static String readText(Path file) {
    try {
      return Files.readString(file);
    } catch (MalformedInputException binary) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
