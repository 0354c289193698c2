package io.riverbed.flink.docs;

import io.riverbed.flink.job.WriteJobArguments;
import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.flink.sql.SqlScript;
import io.riverbed.format.docs.OptionsPage;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;

/**
 * The {@code flink-writer} section of {@code docs/OPTIONS.md}: the writer's options
 * ({@link FlinkWriteOptions#DESCRIPTIONS}), the options the SQL connector reads itself
 * ({@link HudiConnectorOptions}), and the command lines of {@code riverbed-write}
 * ({@link WriteJobArguments#USAGE}) and {@code riverbed-sql} ({@link SqlScript#USAGE}).
 */
public final class FlinkOptionReference {
  public static final String SECTION = "flink-writer";

  private FlinkOptionReference() {}

  public static String render() {
    StringBuilder out = new StringBuilder();
    out.append("## Flink writer options (`flink-writer`, `FlinkWriteOptions`)\n\n")
        .append("Hudi's Flink option names. `riverbed-write` takes them as `--set key=value` (its flags set the common\n")
        .append("ones), Flink SQL in `WITH (...)`, the DataStream API as the options map. Options not listed here are\n")
        .append("passed on to the core (see below).\n\n")
        .append(OptionsPage.optionTable(FlinkWriteOptions.DESCRIPTIONS))
        .append("\n### Flink SQL connector `hudi` (`HudiConnectorOptions`)\n\n")
        .append("The options the table factory reads itself; every other `WITH (...)` entry goes to the writer unchanged.\n")
        .append("`PRIMARY KEY` sets the record key and `PARTITIONED BY` the partition fields. As in Hudi, the SQL\n")
        .append("connector's `table.type` defaults to `COPY_ON_WRITE` (the job and the DataStream writer default to\n")
        .append("`MERGE_ON_READ`).\n\n")
        .append("| option | default | meaning |\n|---|---|---|\n");
    for (ConfigOption<?> o : connectorOptions()) {
      String key = "`" + o.key() + "`";
      List<String> fallbacks = new ArrayList<>();
      for (FallbackKey f : o.fallbackKeys()) {
        fallbacks.add("`" + f.getKey() + "`");
      }
      String description = plainDescription(o);
      if (!fallbacks.isEmpty()) {
        description += " Fallback keys: " + String.join(", ", fallbacks) + ".";
      }
      out.append(OptionsPage.row(List.of(key, o.hasDefaultValue() ? OptionsPage.value(String.valueOf(o.defaultValue())) : "",
          description)));
    }
    out.append("\n### `riverbed-write` (the job, `io.riverbed.flink.job.WriteJob`)\n\n")
        .append(OptionsPage.codeBlock(WriteJobArguments.USAGE))
        .append("\n### `riverbed-sql` (`io.riverbed.flink.sql.SqlScript`)\n\n")
        .append(OptionsPage.codeBlock(SqlScript.USAGE));
    return out.toString();
  }

  /** The public {@link ConfigOption} constants of {@link HudiConnectorOptions}, by key. */
  static List<ConfigOption<?>> connectorOptions() {
    List<ConfigOption<?>> options = new ArrayList<>();
    for (Field f : HudiConnectorOptions.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && ConfigOption.class.isAssignableFrom(f.getType())) {
        try {
          options.add((ConfigOption<?>) f.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    options.sort(Comparator.comparing(ConfigOption::key));
    return options;
  }

  /** The text of a description built by {@code withDescription(String)}. */
  private static String plainDescription(ConfigOption<?> o) {
    StringBuilder text = new StringBuilder();
    for (BlockElement block : o.description().getBlocks()) {
      if (!(block instanceof TextElement t) || !t.getElements().isEmpty()) {
        throw new IllegalStateException(o.key() + ": only plain-text descriptions are rendered");
      }
      text.append(t.getFormat());
    }
    return text.toString();
  }
}
