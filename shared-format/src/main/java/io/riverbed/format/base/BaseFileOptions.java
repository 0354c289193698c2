package io.riverbed.format.base;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How base files are written, read from a map with Hudi's key names; defaults are Hudi 0.15's.
 *
 * @param compression {@value #COMPRESSION_CODEC} (default gzip; snappy, zstd, uncompressed allowed)
 * @param rowGroupSize {@value #ROW_GROUP_SIZE} in bytes (default 120 MiB)
 * @param pageSize {@value #PAGE_SIZE} in bytes, also the dictionary page size (default 1 MiB)
 * @param dictionaryEnabled {@value #DICTIONARY_ENABLED} (default true)
 * @param populateMetaFields {@value #POPULATE_META_FIELDS}; without meta fields no bloom filter or
 *     key range is written (default true)
 * @param bloomFilterType {@value #BLOOM_FILTER_TYPE} (default DYNAMIC_V0)
 * @param bloomNumEntries {@value #BLOOM_NUM_ENTRIES} (default 60000)
 * @param bloomFpp {@value #BLOOM_FPP} (default 1e-9)
 * @param bloomDynamicMaxEntries {@value #BLOOM_DYNAMIC_MAX_ENTRIES} (default 100000)
 * @param writeOldListStructure {@value #WRITE_OLD_LIST_STRUCTURE}: parquet-avro's two-level lists
 *     ({@code repeated group array}); Hudi 0.15's Avro writer leaves this at parquet-avro's default
 *     {@code true}, so the default here is true too
 */
public record BaseFileOptions(
    CompressionCodecName compression,
    long rowGroupSize,
    int pageSize,
    boolean dictionaryEnabled,
    boolean populateMetaFields,
    BloomFilterType bloomFilterType,
    int bloomNumEntries,
    double bloomFpp,
    int bloomDynamicMaxEntries,
    boolean writeOldListStructure) {

  public static final String COMPRESSION_CODEC = "hoodie.parquet.compression.codec";
  public static final String ROW_GROUP_SIZE = "hoodie.parquet.block.size";
  public static final String PAGE_SIZE = "hoodie.parquet.page.size";
  public static final String DICTIONARY_ENABLED = "hoodie.parquet.dictionary.enabled";
  public static final String POPULATE_META_FIELDS = "hoodie.populate.meta.fields";
  public static final String BLOOM_FILTER_TYPE = "hoodie.bloom.index.filter.type";
  public static final String BLOOM_NUM_ENTRIES = "hoodie.index.bloom.num_entries";
  public static final String BLOOM_FPP = "hoodie.index.bloom.fpp";
  public static final String BLOOM_DYNAMIC_MAX_ENTRIES = "hoodie.bloom.index.filter.dynamic.max.entries";
  public static final String WRITE_OLD_LIST_STRUCTURE = "parquet.avro.write-old-list-structure";

  public static final long DEFAULT_ROW_GROUP_SIZE = 120L * 1024 * 1024;
  public static final int DEFAULT_PAGE_SIZE = 1024 * 1024;

  /** Each option's key → {default, description}, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public BaseFileOptions {
    if (rowGroupSize <= 0 || pageSize <= 0) {
      throw new IllegalArgumentException("row group size and page size must be positive, got "
          + rowGroupSize + " and " + pageSize);
    }
    if (bloomNumEntries <= 0 || bloomFpp <= 0 || bloomFpp >= 1) {
      throw new IllegalArgumentException("bloom filter needs num_entries > 0 and 0 < fpp < 1, got "
          + bloomNumEntries + " and " + bloomFpp);
    }
  }

  /** Hudi's defaults. */
  public static BaseFileOptions defaults() {
    return fromMap(Map.of());
  }

  public static BaseFileOptions fromMap(Map<String, String> conf) {
    return new BaseFileOptions(
        codec(conf.getOrDefault(COMPRESSION_CODEC, "gzip")),
        Long.parseLong(conf.getOrDefault(ROW_GROUP_SIZE, Long.toString(DEFAULT_ROW_GROUP_SIZE)).trim()),
        Integer.parseInt(conf.getOrDefault(PAGE_SIZE, Integer.toString(DEFAULT_PAGE_SIZE)).trim()),
        Boolean.parseBoolean(conf.getOrDefault(DICTIONARY_ENABLED, "true").trim()),
        Boolean.parseBoolean(conf.getOrDefault(POPULATE_META_FIELDS, "true").trim()),
        BloomFilterType.parse(conf.getOrDefault(BLOOM_FILTER_TYPE, BloomFilterType.DYNAMIC_V0.name())),
        Integer.parseInt(conf.getOrDefault(BLOOM_NUM_ENTRIES, Integer.toString(BloomFilter.DEFAULT_NUM_ENTRIES)).trim()),
        Double.parseDouble(conf.getOrDefault(BLOOM_FPP, Double.toString(BloomFilter.DEFAULT_FPP)).trim()),
        Integer.parseInt(conf.getOrDefault(BLOOM_DYNAMIC_MAX_ENTRIES,
            Integer.toString(BloomFilter.DEFAULT_DYNAMIC_MAX_ENTRIES)).trim()),
        Boolean.parseBoolean(conf.getOrDefault(WRITE_OLD_LIST_STRUCTURE, "true").trim()));
  }

  public BaseFileOptions withCompression(CompressionCodecName codec) {
    return new BaseFileOptions(codec, rowGroupSize, pageSize, dictionaryEnabled, populateMetaFields, bloomFilterType,
        bloomNumEntries, bloomFpp, bloomDynamicMaxEntries, writeOldListStructure);
  }

  public BaseFileOptions withSizes(long rowGroupBytes, int pageBytes) {
    return new BaseFileOptions(compression, rowGroupBytes, pageBytes, dictionaryEnabled, populateMetaFields,
        bloomFilterType, bloomNumEntries, bloomFpp, bloomDynamicMaxEntries, writeOldListStructure);
  }

  public BaseFileOptions withBloomFilter(BloomFilterType type, int numEntries, double fpp, int dynamicMaxEntries) {
    return new BaseFileOptions(compression, rowGroupSize, pageSize, dictionaryEnabled, populateMetaFields, type,
        numEntries, fpp, dynamicMaxEntries, writeOldListStructure);
  }

  public BaseFileOptions withPopulateMetaFields(boolean populate) {
    return new BaseFileOptions(compression, rowGroupSize, pageSize, dictionaryEnabled, populate, bloomFilterType,
        bloomNumEntries, bloomFpp, bloomDynamicMaxEntries, writeOldListStructure);
  }

  public BaseFileOptions withWriteOldListStructure(boolean oldLists) {
    return new BaseFileOptions(compression, rowGroupSize, pageSize, dictionaryEnabled, populateMetaFields,
        bloomFilterType, bloomNumEntries, bloomFpp, bloomDynamicMaxEntries, oldLists);
  }

  /** A new empty bloom filter as configured. */
  public BloomFilter newBloomFilter() {
    return BloomFilter.create(bloomFilterType, bloomNumEntries, bloomFpp, bloomDynamicMaxEntries);
  }

  private static CompressionCodecName codec(String name) {
    String trimmed = name.trim();
    if (trimmed.isEmpty()) {
      return CompressionCodecName.UNCOMPRESSED;
    }
    try {
      return CompressionCodecName.valueOf(trimmed.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown parquet compression codec '" + name + "' for " + COMPRESSION_CODEC, e);
    }
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(COMPRESSION_CODEC, new String[] {"gzip", "Parquet compression of base files: gzip, snappy, zstd or "
        + "uncompressed (empty = uncompressed)."});
    d.put(ROW_GROUP_SIZE, new String[] {Long.toString(DEFAULT_ROW_GROUP_SIZE), "Parquet row group size in bytes."});
    d.put(PAGE_SIZE, new String[] {Integer.toString(DEFAULT_PAGE_SIZE),
        "Parquet page size in bytes, also the dictionary page size."});
    d.put(DICTIONARY_ENABLED, new String[] {"true", "Parquet dictionary encoding."});
    d.put(POPULATE_META_FIELDS, new String[] {"true", "Write the five _hoodie_* meta columns; without them no bloom "
        + "filter or key range is written to the footer."});
    d.put(BLOOM_FILTER_TYPE, new String[] {"DYNAMIC_V0", "Bloom filter of record keys in the footer: DYNAMIC_V0 or SIMPLE."});
    d.put(BLOOM_NUM_ENTRIES, new String[] {Integer.toString(BloomFilter.DEFAULT_NUM_ENTRIES),
        "Expected keys per base file, sizing the bloom filter."});
    d.put(BLOOM_FPP, new String[] {Double.toString(BloomFilter.DEFAULT_FPP), "Bloom filter false positive rate."});
    d.put(BLOOM_DYNAMIC_MAX_ENTRIES, new String[] {Integer.toString(BloomFilter.DEFAULT_DYNAMIC_MAX_ENTRIES),
        "DYNAMIC_V0: most keys the bloom filter grows to."});
    d.put(WRITE_OLD_LIST_STRUCTURE, new String[] {"true", "parquet-avro's two-level lists (repeated group array), as "
        + "Hudi 0.15 writes them."});
    return Collections.unmodifiableMap(d);
  }
}
