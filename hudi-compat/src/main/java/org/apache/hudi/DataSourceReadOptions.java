package org.apache.hudi;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.spark.ReadOption;
import org.apache.hudi.common.config.ConfigProperty;

/**
 * Apache Hudi's DataFrame read option names ({@code DataSourceReadOptions.QUERY_TYPE.key()}, the legacy
 * {@code QUERY_TYPE_OPT_KEY} / {@code QUERY_TYPE_INCREMENTAL_OPT_VAL} strings, ...) with Hudi 0.15's keys,
 * values and defaults, for the options Riverbed's reader reads ({@link ReadOption}). Options that reader
 * knows but does not implement are here too: they accept only their default, as {@link ReadOption} says.
 */
public final class DataSourceReadOptions {
  public static final String QUERY_TYPE_SNAPSHOT_OPT_VAL = "snapshot";
  public static final String QUERY_TYPE_READ_OPTIMIZED_OPT_VAL = "read_optimized";
  public static final String QUERY_TYPE_INCREMENTAL_OPT_VAL = "incremental";
  public static final ConfigProperty<String> QUERY_TYPE = ConfigProperty
      .key(QuerySpec.QUERY_TYPE).defaultValue(QUERY_TYPE_SNAPSHOT_OPT_VAL);

  public static final String REALTIME_PAYLOAD_COMBINE_OPT_VAL = "payload_combine";
  public static final ConfigProperty<String> REALTIME_MERGE = ConfigProperty
      .key(ReadOption.MERGE_TYPE.key()).defaultValue(REALTIME_PAYLOAD_COMBINE_OPT_VAL);

  public static final ConfigProperty<String> BEGIN_INSTANTTIME = ConfigProperty.key(QuerySpec.BEGIN_INSTANT).noDefaultValue();
  public static final ConfigProperty<String> END_INSTANTTIME = ConfigProperty.key(QuerySpec.END_INSTANT).noDefaultValue();
  public static final ConfigProperty<String> TIME_TRAVEL_AS_OF_INSTANT = ConfigProperty
      .key(QuerySpec.AS_OF_INSTANT).noDefaultValue();
  public static final ConfigProperty<String> INCREMENTAL_READ_HANDLE_HOLLOW_COMMIT = ConfigProperty
      .key(QuerySpec.HOLES_POLICY).defaultValue("FAIL");
  public static final ConfigProperty<String> INCREMENTAL_FALLBACK_TO_FULL_TABLE_SCAN = ConfigProperty
      .key(ReadOption.INCR_FALLBACK_FULL_SCAN.key()).defaultValue("false");
  public static final ConfigProperty<String> INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME = ConfigProperty
      .key(ReadOption.SCHEMA_USE_END_INSTANT.key()).defaultValue("false");
  public static final ConfigProperty<String> PUSH_DOWN_INCR_FILTERS = ConfigProperty
      .key(ReadOption.INCR_FILTERS.key()).defaultValue("");
  public static final ConfigProperty<String> INCR_PATH_GLOB = ConfigProperty
      .key(ReadOption.INCR_PATH_GLOB.key()).defaultValue("");
  public static final ConfigProperty<Boolean> EXTRACT_PARTITION_VALUES_FROM_PARTITION_PATH = ConfigProperty
      .key(ReadOption.EXTRACT_PARTITION_VALUES.key()).defaultValue(false);

  /** Hudi's deprecated plain-string names (what Hudi 0.6 to 0.10 scripts use). */
  @Deprecated
  public static final String QUERY_TYPE_OPT_KEY = QUERY_TYPE.key();
  @Deprecated
  public static final String DEFAULT_QUERY_TYPE_OPT_VAL = QUERY_TYPE_SNAPSHOT_OPT_VAL;
  @Deprecated
  public static final String REALTIME_MERGE_OPT_KEY = REALTIME_MERGE.key();
  @Deprecated
  public static final String DEFAULT_REALTIME_MERGE_OPT_VAL = REALTIME_PAYLOAD_COMBINE_OPT_VAL;
  @Deprecated
  public static final String BEGIN_INSTANTTIME_OPT_KEY = BEGIN_INSTANTTIME.key();
  @Deprecated
  public static final String END_INSTANTTIME_OPT_KEY = END_INSTANTTIME.key();
  @Deprecated
  public static final String INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME_OPT_KEY = INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME.key();
  @Deprecated
  public static final String DEFAULT_INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME_OPT_VAL =
      INCREMENTAL_READ_SCHEMA_USE_END_INSTANTTIME.defaultValue();
  @Deprecated
  public static final String PUSH_DOWN_INCR_FILTERS_OPT_KEY = PUSH_DOWN_INCR_FILTERS.key();
  @Deprecated
  public static final String DEFAULT_PUSH_DOWN_FILTERS_OPT_VAL = PUSH_DOWN_INCR_FILTERS.defaultValue();
  @Deprecated
  public static final String INCR_PATH_GLOB_OPT_KEY = INCR_PATH_GLOB.key();
  @Deprecated
  public static final String DEFAULT_INCR_PATH_GLOB_OPT_VAL = INCR_PATH_GLOB.defaultValue();

  private DataSourceReadOptions() {}
}
