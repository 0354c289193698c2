package io.riverbed.format.table;

/**
 * The keys of {@code .hoodie/hoodie.properties} Riverbed reads or writes, with Hudi 0.15's default
 * (null when Hudi has none) and a description. The one place these key strings live.
 */
public enum TableProperty {
  NAME("hoodie.table.name", null, "Table name; part of the checksum input."),
  DATABASE_NAME("hoodie.database.name", null, "Database name; part of the checksum input."),
  TYPE("hoodie.table.type", "COPY_ON_WRITE", "COPY_ON_WRITE or MERGE_ON_READ."),
  VERSION("hoodie.table.version", "0",
      "Table version; Riverbed reads and writes versions 6 and 8 (Hudi 1.x), and creates 6 unless asked for 8."),
  INITIAL_VERSION("hoodie.table.initial.version", null,
      "Table version 8: the version the table was created with (8, or SIX when upgraded from version 6)."),
  TIMELINE_LAYOUT_VERSION("hoodie.timeline.layout.version", null,
      "Timeline layout version; 1 for table version 6, 2 for table version 8. Required by readers."),
  TIMELINE_PATH("hoodie.timeline.path", "timeline",
      "Table version 8: folder of the active timeline under .hoodie."),
  TIMELINE_HISTORY_PATH("hoodie.timeline.history.path", "history",
      "Table version 8: folder of the archived (LSM) timeline under the active timeline's folder."),
  CHECKSUM("hoodie.table.checksum", null,
      "CRC32 of the UTF-8 bytes of '<database or empty>.<table name>', unsigned decimal."),
  ARCHIVELOG_FOLDER("hoodie.archivelog.folder", "archived", "Archived timeline folder under .hoodie."),
  RECORD_KEY_FIELDS("hoodie.table.recordkey.fields", null, "Comma-separated record key fields."),
  PARTITION_FIELDS("hoodie.table.partition.fields", null, "Comma-separated partition fields."),
  PRECOMBINE_FIELD("hoodie.table.precombine.field", null, "Ordering field used when merging records."),
  KEY_GENERATOR_CLASS("hoodie.table.keygenerator.class", null, "Hudi key generator class name."),
  KEY_GENERATOR_TYPE("hoodie.table.keygenerator.type", null,
      "Table version 8: key generator by type (SIMPLE, COMPLEX, ...), stored instead of the class."),
  HIVE_STYLE_PARTITIONING("hoodie.datasource.write.hive_style_partitioning", "false",
      "Partition folders named field=value."),
  URL_ENCODE_PARTITIONING("hoodie.datasource.write.partitionpath.urlencode", "false",
      "Partition values escaped with Hive path escaping."),
  DROP_PARTITION_COLUMNS("hoodie.datasource.write.drop.partition.columns", "false",
      "Partition columns left out of data files."),
  CREATE_SCHEMA("hoodie.table.create.schema", null, "Avro schema JSON of the table at creation, no meta fields."),
  BASE_FILE_FORMAT("hoodie.table.base.file.format", "PARQUET", "Base file format."),
  LOG_FILE_FORMAT("hoodie.table.log.file.format", "HOODIE_LOG", "Log file format."),
  PAYLOAD_CLASS("hoodie.compaction.payload.class",
      "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload", "Record payload class (merge semantics)."),
  RECORD_MERGER_STRATEGY("hoodie.compaction.record.merger.strategy",
      "eeb8d96f-b1e4-49fd-bbf8-28ac514178e5", "Record merger strategy id."),
  RECORD_MERGE_MODE("hoodie.record.merge.mode", null,
      "Table version 8: EVENT_TIME_ORDERING, COMMIT_TIME_ORDERING or CUSTOM (the payload class decides)."),
  RECORD_MERGE_STRATEGY_ID("hoodie.record.merge.strategy.id", null,
      "Table version 8: record merger strategy id."),
  POPULATE_META_FIELDS("hoodie.populate.meta.fields", "true", "Whether records carry the five meta columns."),
  CDC_ENABLED("hoodie.table.cdc.enabled", "false", "Change data capture log files."),
  TIMELINE_TIMEZONE("hoodie.table.timeline.timezone", "LOCAL", "Clock zone of instant times: LOCAL or UTC."),
  PARTITION_METAFILE_USE_BASE_FORMAT("hoodie.partition.metafile.use.base.format", "false",
      "Partition marker as a parquet file instead of properties text."),
  METADATA_PARTITIONS("hoodie.table.metadata.partitions", null,
      "Completed metadata-table partitions, sorted, comma-separated; 'files' gates metadata-table use."),
  METADATA_PARTITIONS_INFLIGHT("hoodie.table.metadata.partitions.inflight", null,
      "Metadata-table partitions being built.");

  private final String key;
  private final String defaultValue;
  private final String description;

  TableProperty(String key, String defaultValue, String description) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.description = description;
  }

  public String key() {
    return key;
  }

  /** Hudi's default when the key is absent; null if there is none. */
  public String defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }
}
