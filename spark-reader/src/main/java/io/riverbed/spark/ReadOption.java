package io.riverbed.spark;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import java.util.List;

/**
 * The options the {@code hudi} DataSource reads, with Hudi 0.15's key names, defaults and
 * meanings. {@link #allowedValues} non-empty means any other value is refused with an error that
 * lists them (Hudi options Riverbed knows but does not implement accept only their default).
 */
public enum ReadOption {
  QUERY_TYPE(QuerySpec.QUERY_TYPE, "snapshot",
      "snapshot (latest merged file slices), read_optimized (base files only) or incremental.",
      List.of("snapshot", "read_optimized", "incremental")),
  BEGIN_INSTANT(QuerySpec.BEGIN_INSTANT, null,
      "Incremental queries: instants strictly after this one are read (required unless consumer-id names a "
          + "registered consumer; 000 = from the start).", List.of()),
  END_INSTANT(QuerySpec.END_INSTANT, null,
      "Incremental queries: last instant read, inclusive (default: the latest completed instant).", List.of()),
  CONSUMER_ID(QuerySpec.CONSUMER_ID, null,
      "Incremental queries (Riverbed, Paimon's name): the registered consumer this read is for. When the read is "
          + "planned (load()), its begin instant, or without one the consumer's stored position, is recorded as the "
          + "consumer's position; until it records a later one or expires (riverbed.consumer.expiration), cleaning and "
          + "archival keep what a read from there needs. The end is not recorded: pass the previous read's end as the "
          + "next begin to move on.", List.of()),
  AS_OF_INSTANT(QuerySpec.AS_OF_INSTANT, null,
      "Time travel: read the table as of this instant (yyyyMMddHHmmssSSS, yyyyMMddHHmmss, yyyy-MM-dd HH:mm:ss[.SSS] "
          + "or yyyy-MM-dd).", List.of()),
  MERGE_TYPE("hoodie.datasource.merge.type", "payload_combine",
      "How snapshot reads of MERGE_ON_READ tables combine base and log records; only payload_combine is supported.",
      List.of("payload_combine")),
  HOLES_POLICY(QuerySpec.HOLES_POLICY, "FAIL",
      "Incremental queries over a range holding an incomplete instant: FAIL, or BLOCK (read up to it).",
      List.of("FAIL", "BLOCK")),
  INCR_PATH_GLOB("hoodie.datasource.read.incr.path.glob", "",
      "Incremental queries: glob restricting the files read. Not supported (must be empty).", List.of("")),
  INCR_FILTERS("hoodie.datasource.read.incr.filters", "",
      "Incremental queries: extra filters. Not supported (must be empty); use DataFrame filters.", List.of("")),
  INCR_FALLBACK_FULL_SCAN("hoodie.datasource.read.incr.fallback.fulltablescan.enable", "false",
      "Incremental queries, as in Hudi 0.15: a range whose begin or end precedes the active timeline (archived "
          + "time; 000 does too), or whose commits wrote files that were cleaned, is read by a full table scan: the "
          + "latest base file of each file group (MERGE_ON_READ logs are not read), rows kept by _hoodie_commit_time. "
          + "false: only the active commits in the range are read (a warning names the archived part), and a cleaned "
          + "file fails the read.",
      List.of("true", "false")),
  SCHEMA_USE_END_INSTANT("hoodie.datasource.read.schema.use.end.instanttime", "false",
      "Incremental queries: use the schema as of the end instant. Not supported (the latest schema is used).",
      List.of("false")),
  EXTRACT_PARTITION_VALUES("hoodie.datasource.read.extract.partition.values.from.path", "false",
      "Take partition column values from partition paths instead of the data. Not supported.", List.of("false")),
  MAX_MERGE_MEMORY(ReadSettings.MAX_MEMORY, Long.toString(ReadSettings.DEFAULT_MAX_MEMORY),
      "Bytes of merged log records one file slice may hold in memory before spilling to disk.", List.of()),
  SPILL_PATH(ReadSettings.SPILL_PATH, "java.io.tmpdir",
      "Local folder the log merge spills to.", List.of());

  private final String key;
  private final String defaultValue;
  private final String description;
  private final List<String> allowedValues;

  ReadOption(String key, String defaultValue, String description, List<String> allowedValues) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.description = description;
    this.allowedValues = allowedValues;
  }

  public String key() {
    return key;
  }

  /** The default, or null when there is none. */
  public String defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  public List<String> allowedValues() {
    return allowedValues;
  }

  /** The options as a Markdown table, for the docs. */
  public static String markdownTable() {
    StringBuilder out = new StringBuilder("| option | default | meaning |\n|---|---|---|\n");
    for (ReadOption o : values()) {
      out.append("| `").append(o.key).append("` | ")
          .append(o.defaultValue == null ? "" : o.defaultValue.isEmpty() ? "(empty)" : "`" + o.defaultValue + "`")
          .append(" | ").append(o.description).append(" |\n");
    }
    return out.toString();
  }
}
