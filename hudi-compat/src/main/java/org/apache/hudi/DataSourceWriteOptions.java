package org.apache.hudi;

import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.write.batch.BatchWriteOptions;
import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hive.HiveSyncConfig;
import org.apache.hudi.sync.common.HoodieSyncConfig;

/**
 * Apache Hudi's DataFrame write option names ({@code DataSourceWriteOptions.OPERATION.key()}, the
 * legacy {@code OPERATION_OPT_KEY} / {@code UPSERT_OPERATION_OPT_VAL} strings, ...) with Hudi 0.15's
 * keys, values and defaults, for the options and values Riverbed's Spark writer reads or accepts.
 * Operations it does not support (bootstrap) have no constant here.
 */
public final class DataSourceWriteOptions {
  public static final String BULK_INSERT_OPERATION_OPT_VAL = "bulk_insert";
  public static final String INSERT_OPERATION_OPT_VAL = "insert";
  public static final String UPSERT_OPERATION_OPT_VAL = "upsert";
  public static final String DELETE_OPERATION_OPT_VAL = "delete";
  public static final String INSERT_OVERWRITE_OPERATION_OPT_VAL = "insert_overwrite";
  public static final String INSERT_OVERWRITE_TABLE_OPERATION_OPT_VAL = "insert_overwrite_table";
  public static final String DELETE_PARTITION_OPERATION_OPT_VAL = "delete_partition";
  public static final ConfigProperty<String> OPERATION = ConfigProperty
      .key(BatchWriteOptions.OPERATION).defaultValue(UPSERT_OPERATION_OPT_VAL);

  public static final String COW_TABLE_TYPE_OPT_VAL = "COPY_ON_WRITE";
  public static final String MOR_TABLE_TYPE_OPT_VAL = "MERGE_ON_READ";
  public static final ConfigProperty<String> TABLE_TYPE = ConfigProperty
      .key(BatchWriteOptions.TABLE_TYPE).defaultValue(COW_TABLE_TYPE_OPT_VAL);

  public static final ConfigProperty<String> PARTITIONS_TO_DELETE = ConfigProperty
      .key(BatchWriteOptions.PARTITIONS_TO_DELETE).noDefaultValue();

  public static final ConfigProperty<String> TABLE_NAME = ConfigProperty
      .key(BatchWriteOptions.WRITE_TABLE_NAME).noDefaultValue();
  public static final ConfigProperty<String> PRECOMBINE_FIELD = HoodieWriteConfig.PRECOMBINE_FIELD_NAME;
  public static final ConfigProperty<String> PAYLOAD_CLASS_NAME = HoodieWriteConfig.WRITE_PAYLOAD_CLASS_NAME;
  public static final ConfigProperty<String> RECORDKEY_FIELD = ConfigProperty
      .key(KeyGeneratorOptions.RECORD_KEY_FIELD).noDefaultValue();
  public static final ConfigProperty<String> PARTITIONPATH_FIELD = ConfigProperty
      .key(KeyGeneratorOptions.PARTITION_PATH_FIELD).noDefaultValue();
  public static final ConfigProperty<String> HIVE_STYLE_PARTITIONING = ConfigProperty
      .key(KeyGeneratorOptions.HIVE_STYLE_PARTITIONING).defaultValue("false");
  public static final ConfigProperty<String> URL_ENCODE_PARTITIONING = ConfigProperty
      .key(KeyGeneratorOptions.URL_ENCODE_PARTITION_PATH).defaultValue("false");
  public static final ConfigProperty<String> KEYGENERATOR_CLASS_NAME = ConfigProperty
      .key(KeyGeneratorOptions.KEY_GENERATOR_CLASS).defaultValue("org.apache.hudi.keygen.SimpleKeyGenerator");
  public static final ConfigProperty<String> KEYGENERATOR_CONSISTENT_LOGICAL_TIMESTAMP_ENABLED = ConfigProperty
      .key(KeyGeneratorOptions.CONSISTENT_LOGICAL_TIMESTAMP).defaultValue("false");

  /** Sync options: a write accepts them while {@link #HIVE_SYNC_ENABLED} and {@link #META_SYNC_ENABLED} are false. */
  public static final ConfigProperty<String> HIVE_SYNC_ENABLED = HiveSyncConfig.HIVE_SYNC_ENABLED;
  public static final ConfigProperty<String> META_SYNC_ENABLED = HoodieSyncConfig.META_SYNC_ENABLED;
  public static final ConfigProperty<String> HIVE_DATABASE = HoodieSyncConfig.META_SYNC_DATABASE_NAME;
  public static final ConfigProperty<String> HIVE_TABLE = HoodieSyncConfig.META_SYNC_TABLE_NAME;
  public static final ConfigProperty<String> HIVE_BASE_FILE_FORMAT = HoodieSyncConfig.META_SYNC_BASE_FILE_FORMAT;
  public static final ConfigProperty<String> HIVE_PARTITION_FIELDS = HoodieSyncConfig.META_SYNC_PARTITION_FIELDS;
  public static final ConfigProperty<String> HIVE_PARTITION_EXTRACTOR_CLASS = HoodieSyncConfig.META_SYNC_PARTITION_EXTRACTOR_CLASS;
  public static final ConfigProperty<String> HIVE_USER = HiveSyncConfig.HIVE_USER;
  public static final ConfigProperty<String> HIVE_PASS = HiveSyncConfig.HIVE_PASS;
  public static final ConfigProperty<String> HIVE_URL = HiveSyncConfig.HIVE_URL;
  public static final ConfigProperty<String> HIVE_USE_JDBC = HiveSyncConfig.HIVE_USE_JDBC;
  public static final ConfigProperty<String> METASTORE_URIS = HiveSyncConfig.METASTORE_URIS;
  public static final ConfigProperty<String> HIVE_SYNC_MODE = HiveSyncConfig.HIVE_SYNC_MODE;
  public static final ConfigProperty<String> HIVE_AUTO_CREATE_DATABASE = HiveSyncConfig.HIVE_AUTO_CREATE_DATABASE;
  public static final ConfigProperty<String> HIVE_SKIP_RO_SUFFIX_FOR_READ_OPTIMIZED_TABLE =
      HiveSyncConfig.HIVE_SKIP_RO_SUFFIX_FOR_READ_OPTIMIZED_TABLE;
  public static final ConfigProperty<String> HIVE_SUPPORT_TIMESTAMP_TYPE = HiveSyncConfig.HIVE_SUPPORT_TIMESTAMP_TYPE;
  public static final ConfigProperty<String> HIVE_TABLE_PROPERTIES = HiveSyncConfig.HIVE_TABLE_PROPERTIES;
  public static final ConfigProperty<String> HIVE_TABLE_SERDE_PROPERTIES = HiveSyncConfig.HIVE_TABLE_SERDE_PROPERTIES;
  public static final ConfigProperty<String> HIVE_SYNC_AS_DATA_SOURCE_TABLE = HiveSyncConfig.HIVE_SYNC_AS_DATA_SOURCE_TABLE;
  public static final ConfigProperty<Boolean> HIVE_CREATE_MANAGED_TABLE = HiveSyncConfig.HIVE_CREATE_MANAGED_TABLE;
  public static final ConfigProperty<Integer> HIVE_BATCH_SYNC_PARTITION_NUM = HiveSyncConfig.HIVE_BATCH_SYNC_PARTITION_NUM;

  /** Hudi's deprecated plain-string names (what Hudi 0.6 to 0.10 scripts use). */
  @Deprecated
  public static final String OPERATION_OPT_KEY = OPERATION.key();
  @Deprecated
  public static final String DEFAULT_OPERATION_OPT_VAL = OPERATION.defaultValue();
  @Deprecated
  public static final String TABLE_TYPE_OPT_KEY = TABLE_TYPE.key();
  @Deprecated
  public static final String DEFAULT_TABLE_TYPE_OPT_VAL = TABLE_TYPE.defaultValue();
  @Deprecated
  public static final String TABLE_NAME_OPT_KEY = TABLE_NAME.key();
  @Deprecated
  public static final String PRECOMBINE_FIELD_OPT_KEY = PRECOMBINE_FIELD.key();
  @Deprecated
  public static final String DEFAULT_PRECOMBINE_FIELD_OPT_VAL = PRECOMBINE_FIELD.defaultValue();
  @Deprecated
  public static final String PAYLOAD_CLASS_OPT_KEY = PAYLOAD_CLASS_NAME.key();
  @Deprecated
  public static final String DEFAULT_PAYLOAD_OPT_VAL = PAYLOAD_CLASS_NAME.defaultValue();
  @Deprecated
  public static final String RECORDKEY_FIELD_OPT_KEY = RECORDKEY_FIELD.key();
  @Deprecated
  public static final String PARTITIONPATH_FIELD_OPT_KEY = PARTITIONPATH_FIELD.key();
  @Deprecated
  public static final String DEFAULT_PARTITIONPATH_FIELD_OPT_VAL = null;
  @Deprecated
  public static final String HIVE_STYLE_PARTITIONING_OPT_KEY = HIVE_STYLE_PARTITIONING.key();
  @Deprecated
  public static final String DEFAULT_HIVE_STYLE_PARTITIONING_OPT_VAL = HIVE_STYLE_PARTITIONING.defaultValue();
  @Deprecated
  public static final String URL_ENCODE_PARTITIONING_OPT_KEY = URL_ENCODE_PARTITIONING.key();
  @Deprecated
  public static final String DEFAULT_URL_ENCODE_PARTITIONING_OPT_VAL = URL_ENCODE_PARTITIONING.defaultValue();
  @Deprecated
  public static final String KEYGENERATOR_CLASS_OPT_KEY = KEYGENERATOR_CLASS_NAME.key();
  @Deprecated
  public static final String DEFAULT_KEYGENERATOR_CLASS_OPT_VAL = KEYGENERATOR_CLASS_NAME.defaultValue();
  @Deprecated
  public static final String HIVE_SYNC_ENABLED_OPT_KEY = HIVE_SYNC_ENABLED.key();
  @Deprecated
  public static final String DEFAULT_HIVE_SYNC_ENABLED_OPT_VAL = HIVE_SYNC_ENABLED.defaultValue();
  @Deprecated
  public static final String META_SYNC_ENABLED_OPT_KEY = META_SYNC_ENABLED.key();
  @Deprecated
  public static final String DEFAULT_META_SYNC_ENABLED_OPT_VAL = META_SYNC_ENABLED.defaultValue();
  @Deprecated
  public static final String HIVE_DATABASE_OPT_KEY = HIVE_DATABASE.key();
  @Deprecated
  public static final String DEFAULT_HIVE_DATABASE_OPT_VAL = HIVE_DATABASE.defaultValue();
  @Deprecated
  public static final String HIVE_TABLE_OPT_KEY = HIVE_TABLE.key();
  @Deprecated
  public static final String DEFAULT_HIVE_TABLE_OPT_VAL = HIVE_TABLE.defaultValue();
  @Deprecated
  public static final String HIVE_BASE_FILE_FORMAT_OPT_KEY = HIVE_BASE_FILE_FORMAT.key();
  @Deprecated
  public static final String DEFAULT_HIVE_BASE_FILE_FORMAT_OPT_VAL = HIVE_BASE_FILE_FORMAT.defaultValue();
  @Deprecated
  public static final String HIVE_USER_OPT_KEY = HIVE_USER.key();
  @Deprecated
  public static final String DEFAULT_HIVE_USER_OPT_VAL = HIVE_USER.defaultValue();
  @Deprecated
  public static final String HIVE_PASS_OPT_KEY = HIVE_PASS.key();
  @Deprecated
  public static final String DEFAULT_HIVE_PASS_OPT_VAL = HIVE_PASS.defaultValue();
  @Deprecated
  public static final String HIVE_URL_OPT_KEY = HIVE_URL.key();
  @Deprecated
  public static final String DEFAULT_HIVE_URL_OPT_VAL = HIVE_URL.defaultValue();
  @Deprecated
  public static final String HIVE_USE_JDBC_OPT_KEY = HIVE_USE_JDBC.key();
  @Deprecated
  public static final String DEFAULT_HIVE_USE_JDBC_OPT_VAL = HIVE_USE_JDBC.defaultValue();
  @Deprecated
  public static final String HIVE_PARTITION_FIELDS_OPT_KEY = HIVE_PARTITION_FIELDS.key();
  @Deprecated
  public static final String DEFAULT_HIVE_PARTITION_FIELDS_OPT_VAL = HIVE_PARTITION_FIELDS.defaultValue();
  @Deprecated
  public static final String HIVE_PARTITION_EXTRACTOR_CLASS_OPT_KEY = HIVE_PARTITION_EXTRACTOR_CLASS.key();
  @Deprecated
  public static final String DEFAULT_HIVE_PARTITION_EXTRACTOR_CLASS_OPT_VAL = HIVE_PARTITION_EXTRACTOR_CLASS.defaultValue();
  @Deprecated
  public static final String HIVE_AUTO_CREATE_DATABASE_OPT_KEY = HIVE_AUTO_CREATE_DATABASE.key();
  @Deprecated
  public static final String DEFAULT_HIVE_AUTO_CREATE_DATABASE_OPT_KEY = HIVE_AUTO_CREATE_DATABASE.defaultValue();
  @Deprecated
  public static final String HIVE_SKIP_RO_SUFFIX = HIVE_SKIP_RO_SUFFIX_FOR_READ_OPTIMIZED_TABLE.key();
  @Deprecated
  public static final String DEFAULT_HIVE_SKIP_RO_SUFFIX_VAL = HIVE_SKIP_RO_SUFFIX_FOR_READ_OPTIMIZED_TABLE.defaultValue();
  @Deprecated
  public static final String HIVE_SUPPORT_TIMESTAMP = HIVE_SUPPORT_TIMESTAMP_TYPE.key();
  @Deprecated
  public static final String DEFAULT_HIVE_SUPPORT_TIMESTAMP = HIVE_SUPPORT_TIMESTAMP_TYPE.defaultValue();

  private DataSourceWriteOptions() {}
}
