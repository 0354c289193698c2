package io.riverbed.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.write.batch.BatchWriteOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.DataSourceWriteOptions;
import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.model.EmptyHoodieRecordPayload;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hive.HiveSyncConfig;
import org.apache.hudi.hive.MultiPartKeysValueExtractor;
import org.apache.hudi.sync.common.HoodieSyncConfig;
import org.junit.jupiter.api.Test;

/**
 * Every option constant of the Hudi-named classes against Apache Hudi 0.15.0's: the key and default of
 * each {@code ConfigProperty}, the value of each legacy string, as Hudi 0.15.0's bundle holds them
 * (copied here, so a typo on either side fails), and no constant without an expectation.
 */
class HudiOptionNamesTest {
  private static final List<Class<?>> NAMED = List.of(DataSourceWriteOptions.class, DataSourceReadOptions.class,
      HoodieWriteConfig.class, HoodieSyncConfig.class, HiveSyncConfig.class);

  /** "Class.FIELD" -> "key | default" for properties, the value for strings; from Hudi 0.15.0's classes. */
  private static final Map<String, String> HUDI_0_15 = hudi015();

  @Test
  void everyConstantHasHudiKeyAndDefault() throws IllegalAccessException {
    Map<String, String> ours = new TreeMap<>();
    for (Class<?> type : NAMED) {
      for (Field field : type.getDeclaredFields()) {
        if (Modifier.isPublic(field.getModifiers()) && Modifier.isStatic(field.getModifiers())) {
          ours.put(type.getSimpleName() + "." + field.getName(), describe(field.get(null)));
        }
      }
    }
    assertThat(ours).containsExactlyInAnyOrderEntriesOf(HUDI_0_15);
  }

  @Test
  void scalaStyleKeyAccessGivesTheKeyString() {
    assertThat(HoodieWriteConfig.TBL_NAME.key()).isEqualTo(HoodieWriteConfig.TABLE_NAME).isEqualTo("hoodie.table.name");
    assertThat(DataSourceWriteOptions.TABLE_TYPE.hasDefaultValue()).isTrue();
    assertThat(HiveSyncConfig.HIVE_SYNC_MODE.hasDefaultValue()).isFalse();
    assertThat(HiveSyncConfig.META_SYNC_TABLE_NAME).isSameAs(HoodieSyncConfig.META_SYNC_TABLE_NAME);
  }

  @Test
  void classNamesUsedAsOptionValuesAreHudis() {
    assertThat(EmptyHoodieRecordPayload.class.getName())
        .isEqualTo("org.apache.hudi.common.model.EmptyHoodieRecordPayload")
        .isEqualTo(BatchWriteOptions.EMPTY_PAYLOAD);
    assertThat(MultiPartKeysValueExtractor.class.getName())
        .isEqualTo("org.apache.hudi.hive.MultiPartKeysValueExtractor")
        .isEqualTo(HoodieSyncConfig.META_SYNC_PARTITION_EXTRACTOR_CLASS.defaultValue());
  }

  private static String describe(Object value) {
    if (value instanceof ConfigProperty<?> p) {
      return p.key() + " | " + (p.hasDefaultValue() ? String.valueOf(p.defaultValue()) : "<none>");
    }
    return String.valueOf(value);
  }

  private static String[] property(String name, String key, String defaultValue) {
    return new String[] {name, key + " | " + (defaultValue == null ? "<none>" : defaultValue)};
  }

  private static String[] string(String name, String value) {
    return new String[] {name, String.valueOf(value)};
  }

  private static Map<String, String> hudi015() {
    Map<String, String> expected = new LinkedHashMap<>();
    Stream.of(
        string("DataSourceWriteOptions.BULK_INSERT_OPERATION_OPT_VAL", "bulk_insert"),
        string("DataSourceWriteOptions.INSERT_OPERATION_OPT_VAL", "insert"),
        string("DataSourceWriteOptions.UPSERT_OPERATION_OPT_VAL", "upsert"),
        string("DataSourceWriteOptions.DELETE_OPERATION_OPT_VAL", "delete"),
        string("DataSourceWriteOptions.INSERT_OVERWRITE_OPERATION_OPT_VAL", "insert_overwrite"),
        string("DataSourceWriteOptions.INSERT_OVERWRITE_TABLE_OPERATION_OPT_VAL", "insert_overwrite_table"),
        string("DataSourceWriteOptions.DELETE_PARTITION_OPERATION_OPT_VAL", "delete_partition"),
        property("DataSourceWriteOptions.PARTITIONS_TO_DELETE", "hoodie.datasource.write.partitions.to.delete", null),
        property("DataSourceWriteOptions.OPERATION", "hoodie.datasource.write.operation", "upsert"),
        string("DataSourceWriteOptions.COW_TABLE_TYPE_OPT_VAL", "COPY_ON_WRITE"),
        string("DataSourceWriteOptions.MOR_TABLE_TYPE_OPT_VAL", "MERGE_ON_READ"),
        property("DataSourceWriteOptions.TABLE_TYPE", "hoodie.datasource.write.table.type", "COPY_ON_WRITE"),
        property("DataSourceWriteOptions.TABLE_NAME", "hoodie.datasource.write.table.name", null),
        property("DataSourceWriteOptions.PRECOMBINE_FIELD", "hoodie.datasource.write.precombine.field", "ts"),
        property("DataSourceWriteOptions.PAYLOAD_CLASS_NAME", "hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"),
        property("DataSourceWriteOptions.RECORDKEY_FIELD", "hoodie.datasource.write.recordkey.field", null),
        property("DataSourceWriteOptions.PARTITIONPATH_FIELD", "hoodie.datasource.write.partitionpath.field", null),
        property("DataSourceWriteOptions.HIVE_STYLE_PARTITIONING", "hoodie.datasource.write.hive_style_partitioning", "false"),
        property("DataSourceWriteOptions.URL_ENCODE_PARTITIONING", "hoodie.datasource.write.partitionpath.urlencode", "false"),
        property("DataSourceWriteOptions.KEYGENERATOR_CLASS_NAME", "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator"),
        property("DataSourceWriteOptions.KEYGENERATOR_CONSISTENT_LOGICAL_TIMESTAMP_ENABLED", "hoodie.datasource.write.keygenerator.consistent.logical.timestamp.enabled", "false"),
        property("DataSourceWriteOptions.HIVE_SYNC_ENABLED", "hoodie.datasource.hive_sync.enable", "false"),
        property("DataSourceWriteOptions.META_SYNC_ENABLED", "hoodie.datasource.meta.sync.enable", "false"),
        property("DataSourceWriteOptions.HIVE_DATABASE", "hoodie.datasource.hive_sync.database", "default"),
        property("DataSourceWriteOptions.HIVE_TABLE", "hoodie.datasource.hive_sync.table", "unknown"),
        property("DataSourceWriteOptions.HIVE_BASE_FILE_FORMAT", "hoodie.datasource.hive_sync.base_file_format", "PARQUET"),
        property("DataSourceWriteOptions.HIVE_PARTITION_FIELDS", "hoodie.datasource.hive_sync.partition_fields", ""),
        property("DataSourceWriteOptions.HIVE_PARTITION_EXTRACTOR_CLASS", "hoodie.datasource.hive_sync.partition_extractor_class", "org.apache.hudi.hive.MultiPartKeysValueExtractor"),
        property("DataSourceWriteOptions.HIVE_USER", "hoodie.datasource.hive_sync.username", "hive"),
        property("DataSourceWriteOptions.HIVE_PASS", "hoodie.datasource.hive_sync.password", "hive"),
        property("DataSourceWriteOptions.HIVE_URL", "hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://localhost:10000"),
        property("DataSourceWriteOptions.HIVE_USE_JDBC", "hoodie.datasource.hive_sync.use_jdbc", "true"),
        property("DataSourceWriteOptions.METASTORE_URIS", "hoodie.datasource.hive_sync.metastore.uris", "thrift://localhost:9083"),
        property("DataSourceWriteOptions.HIVE_SYNC_MODE", "hoodie.datasource.hive_sync.mode", null),
        property("DataSourceWriteOptions.HIVE_AUTO_CREATE_DATABASE", "hoodie.datasource.hive_sync.auto_create_database", "true"),
        property("DataSourceWriteOptions.HIVE_SKIP_RO_SUFFIX_FOR_READ_OPTIMIZED_TABLE", "hoodie.datasource.hive_sync.skip_ro_suffix", "false"),
        property("DataSourceWriteOptions.HIVE_SUPPORT_TIMESTAMP_TYPE", "hoodie.datasource.hive_sync.support_timestamp", "false"),
        property("DataSourceWriteOptions.HIVE_TABLE_PROPERTIES", "hoodie.datasource.hive_sync.table_properties", null),
        property("DataSourceWriteOptions.HIVE_TABLE_SERDE_PROPERTIES", "hoodie.datasource.hive_sync.serde_properties", null),
        property("DataSourceWriteOptions.HIVE_SYNC_AS_DATA_SOURCE_TABLE", "hoodie.datasource.hive_sync.sync_as_datasource", "true"),
        property("DataSourceWriteOptions.HIVE_CREATE_MANAGED_TABLE", "hoodie.datasource.hive_sync.create_managed_table", "false"),
        property("DataSourceWriteOptions.HIVE_BATCH_SYNC_PARTITION_NUM", "hoodie.datasource.hive_sync.batch_num", "1000"),
        string("DataSourceWriteOptions.OPERATION_OPT_KEY", "hoodie.datasource.write.operation"),
        string("DataSourceWriteOptions.DEFAULT_OPERATION_OPT_VAL", "upsert"),
        string("DataSourceWriteOptions.TABLE_TYPE_OPT_KEY", "hoodie.datasource.write.table.type"),
        string("DataSourceWriteOptions.DEFAULT_TABLE_TYPE_OPT_VAL", "COPY_ON_WRITE"),
        string("DataSourceWriteOptions.TABLE_NAME_OPT_KEY", "hoodie.datasource.write.table.name"),
        string("DataSourceWriteOptions.PRECOMBINE_FIELD_OPT_KEY", "hoodie.datasource.write.precombine.field"),
        string("DataSourceWriteOptions.DEFAULT_PRECOMBINE_FIELD_OPT_VAL", "ts"),
        string("DataSourceWriteOptions.PAYLOAD_CLASS_OPT_KEY", "hoodie.datasource.write.payload.class"),
        string("DataSourceWriteOptions.DEFAULT_PAYLOAD_OPT_VAL", "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"),
        string("DataSourceWriteOptions.RECORDKEY_FIELD_OPT_KEY", "hoodie.datasource.write.recordkey.field"),
        string("DataSourceWriteOptions.PARTITIONPATH_FIELD_OPT_KEY", "hoodie.datasource.write.partitionpath.field"),
        string("DataSourceWriteOptions.DEFAULT_PARTITIONPATH_FIELD_OPT_VAL", null),
        string("DataSourceWriteOptions.HIVE_STYLE_PARTITIONING_OPT_KEY", "hoodie.datasource.write.hive_style_partitioning"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_STYLE_PARTITIONING_OPT_VAL", "false"),
        string("DataSourceWriteOptions.URL_ENCODE_PARTITIONING_OPT_KEY", "hoodie.datasource.write.partitionpath.urlencode"),
        string("DataSourceWriteOptions.DEFAULT_URL_ENCODE_PARTITIONING_OPT_VAL", "false"),
        string("DataSourceWriteOptions.KEYGENERATOR_CLASS_OPT_KEY", "hoodie.datasource.write.keygenerator.class"),
        string("DataSourceWriteOptions.DEFAULT_KEYGENERATOR_CLASS_OPT_VAL", "org.apache.hudi.keygen.SimpleKeyGenerator"),
        string("DataSourceWriteOptions.HIVE_SYNC_ENABLED_OPT_KEY", "hoodie.datasource.hive_sync.enable"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_SYNC_ENABLED_OPT_VAL", "false"),
        string("DataSourceWriteOptions.META_SYNC_ENABLED_OPT_KEY", "hoodie.datasource.meta.sync.enable"),
        string("DataSourceWriteOptions.DEFAULT_META_SYNC_ENABLED_OPT_VAL", "false"),
        string("DataSourceWriteOptions.HIVE_DATABASE_OPT_KEY", "hoodie.datasource.hive_sync.database"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_DATABASE_OPT_VAL", "default"),
        string("DataSourceWriteOptions.HIVE_TABLE_OPT_KEY", "hoodie.datasource.hive_sync.table"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_TABLE_OPT_VAL", "unknown"),
        string("DataSourceWriteOptions.HIVE_BASE_FILE_FORMAT_OPT_KEY", "hoodie.datasource.hive_sync.base_file_format"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_BASE_FILE_FORMAT_OPT_VAL", "PARQUET"),
        string("DataSourceWriteOptions.HIVE_USER_OPT_KEY", "hoodie.datasource.hive_sync.username"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_USER_OPT_VAL", "hive"),
        string("DataSourceWriteOptions.HIVE_PASS_OPT_KEY", "hoodie.datasource.hive_sync.password"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_PASS_OPT_VAL", "hive"),
        string("DataSourceWriteOptions.HIVE_URL_OPT_KEY", "hoodie.datasource.hive_sync.jdbcurl"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_URL_OPT_VAL", "jdbc:hive2://localhost:10000"),
        string("DataSourceWriteOptions.HIVE_USE_JDBC_OPT_KEY", "hoodie.datasource.hive_sync.use_jdbc"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_USE_JDBC_OPT_VAL", "true"),
        string("DataSourceWriteOptions.HIVE_PARTITION_FIELDS_OPT_KEY", "hoodie.datasource.hive_sync.partition_fields"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_PARTITION_FIELDS_OPT_VAL", ""),
        string("DataSourceWriteOptions.HIVE_PARTITION_EXTRACTOR_CLASS_OPT_KEY", "hoodie.datasource.hive_sync.partition_extractor_class"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_PARTITION_EXTRACTOR_CLASS_OPT_VAL", "org.apache.hudi.hive.MultiPartKeysValueExtractor"),
        string("DataSourceWriteOptions.HIVE_AUTO_CREATE_DATABASE_OPT_KEY", "hoodie.datasource.hive_sync.auto_create_database"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_AUTO_CREATE_DATABASE_OPT_KEY", "true"),
        string("DataSourceWriteOptions.HIVE_SKIP_RO_SUFFIX", "hoodie.datasource.hive_sync.skip_ro_suffix"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_SKIP_RO_SUFFIX_VAL", "false"),
        string("DataSourceWriteOptions.HIVE_SUPPORT_TIMESTAMP", "hoodie.datasource.hive_sync.support_timestamp"),
        string("DataSourceWriteOptions.DEFAULT_HIVE_SUPPORT_TIMESTAMP", "false"),
        string("DataSourceReadOptions.QUERY_TYPE_SNAPSHOT_OPT_VAL", "snapshot"),
        string("DataSourceReadOptions.QUERY_TYPE_READ_OPTIMIZED_OPT_VAL", "read_optimized"),
        string("DataSourceReadOptions.QUERY_TYPE_INCREMENTAL_OPT_VAL", "incremental"),
        property("DataSourceReadOptions.QUERY_TYPE", "hoodie.datasource.query.type", "snapshot"),
        string("DataSourceReadOptions.REALTIME_PAYLOAD_COMBINE_OPT_VAL", "payload_combine"),
        property("DataSourceReadOptions.REALTIME_MERGE", "hoodie.datasource.merge.type", "payload_combine"),
        property("DataSourceReadOptions.BEGIN_INSTANTTIME", "hoodie.datasource.read.begin.instanttime", null),
        property("DataSourceReadOptions.END_INSTANTTIME", "hoodie.datasource.read.end.instanttime", null),
        property("DataSourceReadOptions.TIME_TRAVEL_AS_OF_INSTANT", "as.of.instant", null),
        property("DataSourceReadOptions.INCREMENTAL_READ_HANDLE_HOLLOW_COMMIT", "hoodie.read.timeline.holes.resolution.policy", "FAIL"),
        property("DataSourceReadOptions.INCREMENTAL_FALLBACK_TO_FULL_TABLE_SCAN", "hoodie.datasource.read.incr.fallback.fulltablescan.enable", "false"),
        property("DataSourceReadOptions.INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME", "hoodie.datasource.read.schema.use.end.instanttime", "false"),
        property("DataSourceReadOptions.PUSH_DOWN_INCR_FILTERS", "hoodie.datasource.read.incr.filters", ""),
        property("DataSourceReadOptions.INCR_PATH_GLOB", "hoodie.datasource.read.incr.path.glob", ""),
        property("DataSourceReadOptions.EXTRACT_PARTITION_VALUES_FROM_PARTITION_PATH", "hoodie.datasource.read.extract.partition.values.from.path", "false"),
        string("DataSourceReadOptions.QUERY_TYPE_OPT_KEY", "hoodie.datasource.query.type"),
        string("DataSourceReadOptions.DEFAULT_QUERY_TYPE_OPT_VAL", "snapshot"),
        string("DataSourceReadOptions.REALTIME_MERGE_OPT_KEY", "hoodie.datasource.merge.type"),
        string("DataSourceReadOptions.DEFAULT_REALTIME_MERGE_OPT_VAL", "payload_combine"),
        string("DataSourceReadOptions.BEGIN_INSTANTTIME_OPT_KEY", "hoodie.datasource.read.begin.instanttime"),
        string("DataSourceReadOptions.END_INSTANTTIME_OPT_KEY", "hoodie.datasource.read.end.instanttime"),
        string("DataSourceReadOptions.INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME_OPT_KEY", "hoodie.datasource.read.schema.use.end.instanttime"),
        string("DataSourceReadOptions.DEFAULT_INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME_OPT_VAL", "false"),
        string("DataSourceReadOptions.PUSH_DOWN_INCR_FILTERS_OPT_KEY", "hoodie.datasource.read.incr.filters"),
        string("DataSourceReadOptions.DEFAULT_PUSH_DOWN_FILTERS_OPT_VAL", ""),
        string("DataSourceReadOptions.INCR_PATH_GLOB_OPT_KEY", "hoodie.datasource.read.incr.path.glob"),
        string("DataSourceReadOptions.DEFAULT_INCR_PATH_GLOB_OPT_VAL", ""),
        property("HoodieWriteConfig.TBL_NAME", "hoodie.table.name", null),
        property("HoodieWriteConfig.PRECOMBINE_FIELD_NAME", "hoodie.datasource.write.precombine.field", "ts"),
        property("HoodieWriteConfig.WRITE_PAYLOAD_CLASS_NAME", "hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"),
        property("HoodieWriteConfig.KEYGENERATOR_CLASS_NAME", "hoodie.datasource.write.keygenerator.class", null),
        property("HoodieWriteConfig.KEYGENERATOR_TYPE", "hoodie.datasource.write.keygenerator.type", "SIMPLE"),
        string("HoodieWriteConfig.DEFAULT_PARALLELISM", "0"),
        property("HoodieWriteConfig.INSERT_PARALLELISM_VALUE", "hoodie.insert.shuffle.parallelism", "0"),
        property("HoodieWriteConfig.UPSERT_PARALLELISM_VALUE", "hoodie.upsert.shuffle.parallelism", "0"),
        property("HoodieWriteConfig.BULKINSERT_PARALLELISM_VALUE", "hoodie.bulkinsert.shuffle.parallelism", "0"),
        property("HoodieWriteConfig.DELETE_PARALLELISM_VALUE", "hoodie.delete.shuffle.parallelism", "0"),
        string("HoodieWriteConfig.TABLE_NAME", "hoodie.table.name"),
        string("HoodieWriteConfig.PRECOMBINE_FIELD_PROP", "hoodie.datasource.write.precombine.field"),
        string("HoodieWriteConfig.WRITE_PAYLOAD_CLASS", "hoodie.datasource.write.payload.class"),
        string("HoodieWriteConfig.KEYGENERATOR_CLASS_PROP", "hoodie.datasource.write.keygenerator.class"),
        string("HoodieWriteConfig.INSERT_PARALLELISM", "hoodie.insert.shuffle.parallelism"),
        string("HoodieWriteConfig.UPSERT_PARALLELISM", "hoodie.upsert.shuffle.parallelism"),
        string("HoodieWriteConfig.BULKINSERT_PARALLELISM", "hoodie.bulkinsert.shuffle.parallelism"),
        string("HoodieWriteConfig.DELETE_PARALLELISM", "hoodie.delete.shuffle.parallelism"),
        property("HoodieSyncConfig.META_SYNC_BASE_PATH", "hoodie.datasource.meta.sync.base.path", ""),
        property("HoodieSyncConfig.META_SYNC_ENABLED", "hoodie.datasource.meta.sync.enable", "false"),
        property("HoodieSyncConfig.META_SYNC_DATABASE_NAME", "hoodie.datasource.hive_sync.database", "default"),
        property("HoodieSyncConfig.META_SYNC_TABLE_NAME", "hoodie.datasource.hive_sync.table", "unknown"),
        property("HoodieSyncConfig.META_SYNC_BASE_FILE_FORMAT", "hoodie.datasource.hive_sync.base_file_format", "PARQUET"),
        property("HoodieSyncConfig.META_SYNC_PARTITION_FIELDS", "hoodie.datasource.hive_sync.partition_fields", ""),
        property("HoodieSyncConfig.META_SYNC_PARTITION_EXTRACTOR_CLASS", "hoodie.datasource.hive_sync.partition_extractor_class", "org.apache.hudi.hive.MultiPartKeysValueExtractor"),
        property("HoodieSyncConfig.META_SYNC_DECODE_PARTITION", "hoodie.meta.sync.decode_partition", "false"),
        property("HoodieSyncConfig.META_SYNC_CONDITIONAL_SYNC", "hoodie.datasource.meta_sync.condition.sync", "false"),
        property("HoodieSyncConfig.META_SYNC_SPARK_VERSION", "hoodie.meta_sync.spark.version", ""),
        property("HoodieSyncConfig.META_SYNC_SNAPSHOT_WITH_TABLE_NAME", "hoodie.meta.sync.sync_snapshot_with_table_name", "true"),
        property("HoodieSyncConfig.META_SYNC_INCREMENTAL", "hoodie.meta.sync.incremental", "true"),
        property("HiveSyncConfig.HIVE_SYNC_ENABLED", "hoodie.datasource.hive_sync.enable", "false"),
        property("HiveSyncConfig.HIVE_SYNC_MODE", "hoodie.datasource.hive_sync.mode", null),
        property("HiveSyncConfig.METASTORE_URIS", "hoodie.datasource.hive_sync.metastore.uris", "thrift://localhost:9083"),
        property("HiveSyncConfig.HIVE_AUTO_CREATE_DATABASE", "hoodie.datasource.hive_sync.auto_create_database", "true"),
        property("HiveSyncConfig.HIVE_SKIP_RO_SUFFIX_FOR_READ_OPTIMIZED_TABLE", "hoodie.datasource.hive_sync.skip_ro_suffix", "false"),
        property("HiveSyncConfig.HIVE_SUPPORT_TIMESTAMP_TYPE", "hoodie.datasource.hive_sync.support_timestamp", "false"),
        property("HiveSyncConfig.HIVE_TABLE_PROPERTIES", "hoodie.datasource.hive_sync.table_properties", null),
        property("HiveSyncConfig.HIVE_TABLE_SERDE_PROPERTIES", "hoodie.datasource.hive_sync.serde_properties", null),
        property("HiveSyncConfig.HIVE_SYNC_AS_DATA_SOURCE_TABLE", "hoodie.datasource.hive_sync.sync_as_datasource", "true"),
        property("HiveSyncConfig.HIVE_SYNC_SCHEMA_STRING_LENGTH_THRESHOLD", "hoodie.datasource.hive_sync.schema_string_length_thresh", "4000"),
        property("HiveSyncConfig.HIVE_CREATE_MANAGED_TABLE", "hoodie.datasource.hive_sync.create_managed_table", "false"),
        property("HiveSyncConfig.HIVE_SYNC_OMIT_METADATA_FIELDS", "hoodie.datasource.hive_sync.omit_metadata_fields", "false"),
        property("HiveSyncConfig.HIVE_BATCH_SYNC_PARTITION_NUM", "hoodie.datasource.hive_sync.batch_num", "1000"),
        property("HiveSyncConfig.HIVE_SYNC_TABLE_STRATEGY", "hoodie.datasource.hive_sync.table.strategy", "ALL"),
        property("HiveSyncConfig.HIVE_USER", "hoodie.datasource.hive_sync.username", "hive"),
        property("HiveSyncConfig.HIVE_PASS", "hoodie.datasource.hive_sync.password", "hive"),
        property("HiveSyncConfig.HIVE_URL", "hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://localhost:10000"),
        property("HiveSyncConfig.HIVE_USE_JDBC", "hoodie.datasource.hive_sync.use_jdbc", "true"))
        .forEach(e -> expected.put(e[0], e[1]));
    return expected;
  }
}
