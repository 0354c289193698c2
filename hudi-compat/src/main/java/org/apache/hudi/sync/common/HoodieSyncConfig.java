package org.apache.hudi.sync.common;

import org.apache.hudi.common.config.ConfigProperty;

/**
 * Apache Hudi's metastore sync option names ({@code HoodieSyncConfig.META_SYNC_TABLE_NAME.key()}, ...)
 * with Hudi 0.15's keys and defaults: the ones Riverbed's Hive sync ({@code riverbed-hive-sync})
 * reads, and {@link #META_SYNC_ENABLED}, which a Spark write accepts only as {@code false}.
 */
public class HoodieSyncConfig {
  public static final ConfigProperty<String> META_SYNC_BASE_PATH = ConfigProperty
      .key("hoodie.datasource.meta.sync.base.path").defaultValue("");
  /** A Spark write refuses {@code true} (sync after the write with {@code riverbed-hive-sync}). */
  public static final ConfigProperty<String> META_SYNC_ENABLED = ConfigProperty
      .key("hoodie.datasource.meta.sync.enable").defaultValue("false");
  public static final ConfigProperty<String> META_SYNC_DATABASE_NAME = ConfigProperty
      .key("hoodie.datasource.hive_sync.database").defaultValue("default");
  /** Without it the sync takes the table's {@code hoodie.table.name}, as Hudi infers it. */
  public static final ConfigProperty<String> META_SYNC_TABLE_NAME = ConfigProperty
      .key("hoodie.datasource.hive_sync.table").defaultValue("unknown");
  public static final ConfigProperty<String> META_SYNC_BASE_FILE_FORMAT = ConfigProperty
      .key("hoodie.datasource.hive_sync.base_file_format").defaultValue("PARQUET");
  public static final ConfigProperty<String> META_SYNC_PARTITION_FIELDS = ConfigProperty
      .key("hoodie.datasource.hive_sync.partition_fields").defaultValue("");
  public static final ConfigProperty<String> META_SYNC_PARTITION_EXTRACTOR_CLASS = ConfigProperty
      .key("hoodie.datasource.hive_sync.partition_extractor_class")
      .defaultValue("org.apache.hudi.hive.MultiPartKeysValueExtractor");
  public static final ConfigProperty<Boolean> META_SYNC_DECODE_PARTITION = ConfigProperty
      .key("hoodie.meta.sync.decode_partition").defaultValue(false);
  public static final ConfigProperty<String> META_SYNC_CONDITIONAL_SYNC = ConfigProperty
      .key("hoodie.datasource.meta_sync.condition.sync").defaultValue("false");
  public static final ConfigProperty<String> META_SYNC_SPARK_VERSION = ConfigProperty
      .key("hoodie.meta_sync.spark.version").defaultValue("");
  public static final ConfigProperty<String> META_SYNC_SNAPSHOT_WITH_TABLE_NAME = ConfigProperty
      .key("hoodie.meta.sync.sync_snapshot_with_table_name").defaultValue("true");
  public static final ConfigProperty<Boolean> META_SYNC_INCREMENTAL = ConfigProperty
      .key("hoodie.meta.sync.incremental").defaultValue(true);

  /** Holds names only; {@code HiveSyncConfig} extends it so both spell the shared keys alike. */
  protected HoodieSyncConfig() {}
}
