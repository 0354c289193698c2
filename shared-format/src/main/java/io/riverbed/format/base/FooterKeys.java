package io.riverbed.format.base;

/** Key/value metadata keys in base file footers (format doc §4.3). */
public final class FooterKeys {
  /** Base64 of the serialized bloom filter over the record keys. */
  public static final String BLOOM_FILTER = "org.apache.hudi.bloomfilter";
  /** Name under which very old writers stored the bloom filter; read as a fallback. */
  public static final String LEGACY_BLOOM_FILTER = "com.uber.hoodie.bloomfilter";
  /** Bloom filter type; present only for dynamic filters, absent means SIMPLE. */
  public static final String BLOOM_FILTER_TYPE_CODE = "hoodie_bloom_filter_type_code";
  public static final String MIN_RECORD_KEY = "hoodie_min_record_key";
  public static final String MAX_RECORD_KEY = "hoodie_max_record_key";
  /** Full Avro schema (with meta fields), written by parquet-avro. */
  public static final String AVRO_SCHEMA = "parquet.avro.schema";
  /** Older parquet-avro name of {@link #AVRO_SCHEMA}. */
  public static final String LEGACY_AVRO_SCHEMA = "avro.schema";
  /** {@code avro} for parquet-avro files. */
  public static final String WRITER_MODEL = "writer.model.name";

  private FooterKeys() {}
}
