package io.riverbed.format.write;

import io.riverbed.format.base.BaseFileOptions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of the write primitives, read from a map with Hudi's key names; defaults are Hudi 0.15's.
 *
 * @param maxFileSizeBytes {@value #MAX_FILE_SIZE}: target size of a base file (default 120 MiB)
 * @param smallFileLimitBytes {@value #SMALL_FILE_LIMIT}: file groups smaller than this receive new
 *     inserts before new file groups are opened; 0 disables (default 100 MiB)
 * @param recordSizeEstimateBytes {@value #RECORD_SIZE_ESTIMATE}: average record size used to turn
 *     bytes into record counts when assigning inserts (default 1024)
 * @param payloadClass {@value #PAYLOAD_CLASS}: overrides the table's payload class (merge
 *     semantics of COW merges); null = the table's
 * @param precombineField {@value #PRECOMBINE_FIELD}: overrides the table's ordering field; null =
 *     the table's
 * @param baseFile how base files are written (compression, bloom filter, ...)
 */
public record WriteOptions(
    long maxFileSizeBytes,
    long smallFileLimitBytes,
    long recordSizeEstimateBytes,
    String payloadClass,
    String precombineField,
    BaseFileOptions baseFile) {

  public static final String MAX_FILE_SIZE = "hoodie.parquet.max.file.size";
  public static final String SMALL_FILE_LIMIT = "hoodie.parquet.small.file.limit";
  public static final String RECORD_SIZE_ESTIMATE = "hoodie.copyonwrite.record.size.estimate";
  public static final String PAYLOAD_CLASS = "hoodie.datasource.write.payload.class";
  public static final String PRECOMBINE_FIELD = "hoodie.datasource.write.precombine.field";

  /** Each option's key, default and description, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public WriteOptions {
    if (maxFileSizeBytes <= 0 || recordSizeEstimateBytes <= 0 || smallFileLimitBytes < 0) {
      throw new IllegalArgumentException("need " + MAX_FILE_SIZE + " > 0, " + RECORD_SIZE_ESTIMATE + " > 0 and "
          + SMALL_FILE_LIMIT + " >= 0, got " + maxFileSizeBytes + ", " + recordSizeEstimateBytes + ", "
          + smallFileLimitBytes);
    }
  }

  public static WriteOptions defaults() {
    return fromMap(Map.of());
  }

  public static WriteOptions fromMap(Map<String, String> conf) {
    return new WriteOptions(
        longOf(conf, MAX_FILE_SIZE, 120L * 1024 * 1024),
        longOf(conf, SMALL_FILE_LIMIT, 100L * 1024 * 1024),
        longOf(conf, RECORD_SIZE_ESTIMATE, 1024),
        blankToNull(conf.get(PAYLOAD_CLASS)),
        blankToNull(conf.get(PRECOMBINE_FIELD)),
        BaseFileOptions.fromMap(conf));
  }

  public WriteOptions withFileSizes(long maxFileSize, long smallFileLimit, long recordSizeEstimate) {
    return new WriteOptions(maxFileSize, smallFileLimit, recordSizeEstimate, payloadClass, precombineField, baseFile);
  }

  public WriteOptions withPayloadClass(String className) {
    return new WriteOptions(maxFileSizeBytes, smallFileLimitBytes, recordSizeEstimateBytes, className,
        precombineField, baseFile);
  }

  /** The payload class in effect: this writer's override, else the table's. */
  public String payloadClassOr(String tablePayloadClass) {
    return payloadClass != null ? payloadClass : tablePayloadClass;
  }

  private static String blankToNull(String v) {
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static long longOf(Map<String, String> conf, String key, long defaultValue) {
    String v = conf.get(key);
    try {
      return v == null ? defaultValue : Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + key + " must be a number of bytes, got '" + v + "'", e);
    }
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(MAX_FILE_SIZE, new String[] {"125829120", "Target size in bytes of a base file."});
    d.put(SMALL_FILE_LIMIT, new String[] {"104857600",
        "File groups below this size receive new inserts before new file groups are created; 0 disables."});
    d.put(RECORD_SIZE_ESTIMATE, new String[] {"1024", "Average record size in bytes used to size insert batches."});
    d.put(PAYLOAD_CLASS, new String[] {"", "Payload class overriding hoodie.compaction.payload.class for merges."});
    d.put(PRECOMBINE_FIELD, new String[] {"", "Ordering field overriding hoodie.table.precombine.field."});
    return Map.copyOf(d);
  }
}
