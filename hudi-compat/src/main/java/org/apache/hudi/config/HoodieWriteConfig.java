package org.apache.hudi.config;

import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.write.batch.BatchWriteOptions;
import org.apache.hudi.common.config.ConfigProperty;

/**
 * Apache Hudi's write config names that Riverbed's Spark writer reads ({@code HoodieWriteConfig.TBL_NAME.key()},
 * the legacy {@code HoodieWriteConfig.TABLE_NAME}, ...), with Hudi 0.15's keys and defaults.
 */
public final class HoodieWriteConfig {
  public static final ConfigProperty<String> TBL_NAME = ConfigProperty.key(BatchWriteOptions.TABLE_NAME).noDefaultValue();
  public static final ConfigProperty<String> PRECOMBINE_FIELD_NAME = ConfigProperty
      .key(BatchWriteOptions.PRECOMBINE_FIELD).defaultValue("ts");
  public static final ConfigProperty<String> WRITE_PAYLOAD_CLASS_NAME = ConfigProperty
      .key(BatchWriteOptions.PAYLOAD_CLASS).defaultValue("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload");
  public static final ConfigProperty<String> KEYGENERATOR_CLASS_NAME = ConfigProperty
      .key(KeyGeneratorOptions.KEY_GENERATOR_CLASS).noDefaultValue();
  public static final ConfigProperty<String> KEYGENERATOR_TYPE = ConfigProperty
      .key(KeyGeneratorOptions.KEY_GENERATOR_TYPE).defaultValue("SIMPLE");
  public static final String DEFAULT_PARALLELISM = "0";
  public static final ConfigProperty<String> INSERT_PARALLELISM_VALUE = ConfigProperty
      .key(BatchWriteOptions.INSERT_PARALLELISM).defaultValue(DEFAULT_PARALLELISM);
  public static final ConfigProperty<String> UPSERT_PARALLELISM_VALUE = ConfigProperty
      .key(BatchWriteOptions.UPSERT_PARALLELISM).defaultValue(DEFAULT_PARALLELISM);
  public static final ConfigProperty<String> BULKINSERT_PARALLELISM_VALUE = ConfigProperty
      .key(BatchWriteOptions.BULK_INSERT_PARALLELISM).defaultValue(DEFAULT_PARALLELISM);
  public static final ConfigProperty<String> DELETE_PARALLELISM_VALUE = ConfigProperty
      .key(BatchWriteOptions.DELETE_PARALLELISM).defaultValue(DEFAULT_PARALLELISM);

  /** Hudi's deprecated plain-string names of the same keys. */
  @Deprecated
  public static final String TABLE_NAME = TBL_NAME.key();
  @Deprecated
  public static final String PRECOMBINE_FIELD_PROP = PRECOMBINE_FIELD_NAME.key();
  @Deprecated
  public static final String WRITE_PAYLOAD_CLASS = WRITE_PAYLOAD_CLASS_NAME.key();
  @Deprecated
  public static final String KEYGENERATOR_CLASS_PROP = KEYGENERATOR_CLASS_NAME.key();
  @Deprecated
  public static final String INSERT_PARALLELISM = INSERT_PARALLELISM_VALUE.key();
  @Deprecated
  public static final String UPSERT_PARALLELISM = UPSERT_PARALLELISM_VALUE.key();
  @Deprecated
  public static final String BULKINSERT_PARALLELISM = BULKINSERT_PARALLELISM_VALUE.key();
  @Deprecated
  public static final String DELETE_PARALLELISM = DELETE_PARALLELISM_VALUE.key();

  private HoodieWriteConfig() {}
}
