package io.riverbed.format.docs;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableProperty;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.WriteTableVersion;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import java.util.List;
import java.util.Map;

/**
 * The {@code core} section of {@code docs/OPTIONS.md}: the engine-neutral write options every
 * writer passes through, and the {@code hoodie.properties} keys, rendered from
 * {@link WriteOptions}, {@link BaseFileOptions}, {@link KeyGeneratorOptions},
 * {@link CompactionOptions}, {@link CleanOptions}, {@link ArchiveOptions}, {@link ConcurrencyOptions},
 * {@link ConsumerOptions}, {@link WriteTableVersion} and
 * {@link TableProperty}.
 */
public final class CoreOptionReference {
  public static final String SECTION = "core";

  private CoreOptionReference() {}

  public static String render() {
    StringBuilder out = new StringBuilder();
    out.append("## Core write options (`shared-format`)\n\n")
        .append("Read by the write primitives of every engine: set them with `--set key=value` on `riverbed-write`, in\n")
        .append("`WITH (...)` of a Flink SQL table, or in the options map of the DataStream writer.\n\n")
        .append("### Files and merging (`WriteOptions`)\n\n")
        .append(OptionsPage.optionTable(WriteOptions.DESCRIPTIONS))
        .append("\n### Table version (`WriteTableVersion`)\n\n")
        .append("Read by the Flink and the Spark writer when they create a table, and checked against an existing one\n")
        .append("(COMPATIBILITY.md, Table version 8).\n\n")
        .append(OptionsPage.optionTable(WriteTableVersion.DESCRIPTIONS))
        .append("\n### Base files (`BaseFileOptions`)\n\n")
        .append(OptionsPage.optionTable(BaseFileOptions.DESCRIPTIONS))
        .append("\n### Keys and partitions (`KeyGeneratorOptions`)\n\n")
        .append(OptionsPage.optionTable(KeyGeneratorOptions.DESCRIPTIONS))
        .append("\n### Compaction (`CompactionOptions`)\n\n")
        .append("Which file groups a compaction plan takes, and how it merges (when compactions are scheduled is a\n")
        .append("writer option: `compaction.async.enabled`, `compaction.delta_commits`).\n\n")
        .append(OptionsPage.optionTable(CompactionOptions.DESCRIPTIONS))
        .append("\n### Cleaning (`CleanOptions`)\n\n")
        .append("What `Cleaner` keeps (see CONCEPTS.md, Cleaning). `CleanOptions.fromMap` reads the `hoodie.*` keys with\n")
        .append("Hudi's writer defaults, `CleanOptions.fromFlinkMap` the `clean.*` names with Hudi's Flink defaults.\n\n")
        .append(OptionsPage.optionTable(CleanOptions.DESCRIPTIONS))
        .append("\n### Archival (`ArchiveOptions`)\n\n")
        .append("When `Archiver` moves instants from the active timeline into `.hoodie/archived/` (see CONCEPTS.md,\n")
        .append("Archival). `ArchiveOptions.fromMap` reads the `hoodie.*` keys with Hudi's writer defaults,\n")
        .append("`ArchiveOptions.fromFlinkMap` the `archive.*` names with Hudi's Flink defaults.\n\n")
        .append(OptionsPage.optionTable(ArchiveOptions.DESCRIPTIONS))
        .append("\n### Concurrent writers (`ConcurrencyOptions`)\n\n")
        .append("Read by the Flink and the Spark writer: several writers on one table with\n")
        .append("`hoodie.write.concurrency.mode=optimistic_concurrency_control` on every one (CONCURRENT_WRITERS.md).\n\n")
        .append(OptionsPage.optionTable(ConcurrencyOptions.DESCRIPTIONS))
        .append("\n### Consumers (`ConsumerOptions`)\n\n")
        .append("How long a registered consumer (an incremental read with `consumer-id`) holds `Cleaner` and `Archiver`\n")
        .append("back (see CONCEPTS.md, Registered consumers). `CleanOptions` and `ArchiveOptions` read it from their\n")
        .append("options map, by `fromMap` and `fromFlinkMap` alike, under this one name.\n\n")
        .append(OptionsPage.optionTable(ConsumerOptions.DESCRIPTIONS))
        .append("\n## Table properties (`.hoodie/hoodie.properties`, `TableProperty`)\n\n")
        .append("Fixed when the table is created; every writer and reader takes them from the table. \"Written\" says\n")
        .append("when Riverbed puts the key into a table it creates (the Flink writer also sets\n")
        .append("`hoodie.table.timeline.timezone=UTC` and the create schema). Hudi's default applies when a key is absent.\n\n")
        .append("| key | Hudi's default | written | meaning |\n|---|---|---|---|\n");
    for (TableProperty p : TableProperty.values()) {
      out.append(OptionsPage.row(List.of("`" + p.key() + "`", OptionsPage.value(p.defaultValue()), written(p),
          p.description())));
    }
    return out.toString();
  }

  /** When {@link TableConfig.Builder} writes the key, found by building tables with and without the optional settings. */
  private static String written(TableProperty p) {
    boolean minimalCow = minimal(TableType.COPY_ON_WRITE).containsKey(p.key());
    boolean minimalMor = minimal(TableType.MERGE_ON_READ).containsKey(p.key());
    boolean fullCow = full(TableType.COPY_ON_WRITE).containsKey(p.key());
    boolean fullMor = full(TableType.MERGE_ON_READ).containsKey(p.key());
    if (minimalCow && minimalMor) {
      return "always";
    }
    if (minimalMor) {
      return fullCow ? "MERGE_ON_READ; COPY_ON_WRITE when set" : "MERGE_ON_READ";
    }
    if (fullCow || fullMor) {
      return "when set";
    }
    if (minimal(TableType.COPY_ON_WRITE, 8).containsKey(p.key())) {
      return "version 8";
    }
    if (full(TableType.COPY_ON_WRITE, 8).containsKey(p.key())) {
      return "version 8, when set";
    }
    return "no (read only)";
  }

  private static Map<String, String> minimal(TableType type) {
    return minimal(type, 6);
  }

  private static Map<String, String> minimal(TableType type, int version) {
    return TableConfig.builder("t").type(type).tableVersion(version).build().properties();
  }

  private static Map<String, String> full(TableType type) {
    return full(type, 6);
  }

  private static Map<String, String> full(TableType type, int version) {
    return TableConfig.builder("t").type(type).tableVersion(version).database("db").recordKeyFields(List.of("k")).partitionFields(List.of("p"))
        .precombineField("ts").keyGeneratorClass("org.apache.hudi.keygen.SimpleKeyGenerator")
        .createSchema("{}").payloadClass("org.apache.hudi.common.model.DefaultHoodieRecordPayload")
        .timelineTimezone(io.riverbed.format.table.TimelineTimezone.UTC).populateMetaFields(false)
        .build().properties();
  }
}
