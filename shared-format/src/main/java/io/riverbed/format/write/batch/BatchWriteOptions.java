package io.riverbed.format.write.batch;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.WriteTableVersion;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.concurrency.ConcurrencyOptions;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Options of one batch write (a Spark {@code df.write.format("hudi")}), read from a map with
 * Hudi's key names. The key generator, file sizing and base file options are the core's own
 * classes ({@link KeyGeneratorOptions}, {@link WriteOptions}, {@link BaseFileOptions}); this class
 * adds what a batch write decides: the operation, the table it creates, deletes by payload class,
 * and the parallelism. A {@code hoodie.*} option this writer does not know, or a value it does not
 * support, is refused by name ({@link #fromMap}), so a Hudi job never silently loses a setting.
 *
 * @param operation {@value #OPERATION}: upsert (default), insert, bulk_insert, delete, insert_overwrite,
 *     insert_overwrite_table or delete_partition
 * @param tableType {@value #TABLE_TYPE}: the type of a table this write creates (default COPY_ON_WRITE)
 * @param tableName {@value #TABLE_NAME}: the name of a table this write creates; null if unset
 * @param deletesAll {@value #PAYLOAD_CLASS} is {@value #EMPTY_PAYLOAD}: every row of the batch is a delete
 * @param parallelism the shuffle parallelism option of the operation; 0 = the engine's default
 * @param partitionsToDelete {@value #PARTITIONS_TO_DELETE} (delete_partition): partition paths, {@code *}
 *     a wildcard; empty when unset (the partitions of the batch's rows are deleted then)
 * @param smallFileGroupCandidates {@value #SMALL_FILE_GROUP_CANDIDATES}: how many of a MERGE_ON_READ
 *     partition's smallest base-only file groups an insert or upsert tops up with new keys (default 1)
 * @param write file sizing, payload and precombine overrides, base file options
 * @param concurrency {@value ConcurrencyOptions#MODE} and the lock and heartbeat options of concurrent writers
 * @param numBuckets {@value #INDEX_TYPE}=BUCKET: {@value #BUCKET_NUM}, the number of buckets keys are
 *     hashed into (as Hudi's and Riverbed's Flink bucket index place them); 0 when keys are looked up
 * @param bucketHashFields {@value #BUCKET_HASH_FIELD}: the key fields hashed; empty = the record key fields
 * @param raw every option given, for the key generator of a new table
 */
public record BatchWriteOptions(
    WriteOperationType operation,
    TableType tableType,
    String tableName,
    boolean deletesAll,
    int parallelism,
    List<String> partitionsToDelete,
    int smallFileGroupCandidates,
    WriteOptions write,
    ConcurrencyOptions concurrency,
    int numBuckets,
    List<String> bucketHashFields,
    Map<String, String> raw) {

  public static final String OPERATION = "hoodie.datasource.write.operation";
  public static final String TABLE_TYPE = "hoodie.datasource.write.table.type";
  public static final String TABLE_NAME = "hoodie.table.name";
  public static final String WRITE_TABLE_NAME = "hoodie.datasource.write.table.name";
  public static final String PAYLOAD_CLASS = WriteOptions.PAYLOAD_CLASS;
  public static final String PRECOMBINE_FIELD = WriteOptions.PRECOMBINE_FIELD;
  public static final String UPSERT_PARALLELISM = "hoodie.upsert.shuffle.parallelism";
  public static final String INSERT_PARALLELISM = "hoodie.insert.shuffle.parallelism";
  public static final String BULK_INSERT_PARALLELISM = "hoodie.bulkinsert.shuffle.parallelism";
  public static final String DELETE_PARALLELISM = "hoodie.delete.shuffle.parallelism";
  public static final String PARTITIONS_TO_DELETE = "hoodie.datasource.write.partitions.to.delete";
  public static final String SMALL_FILE_GROUP_CANDIDATES = "hoodie.merge.small.file.group.candidates.limit";
  public static final String HIVE_SYNC_ENABLED = "hoodie.datasource.hive_sync.enable";
  public static final String META_SYNC_ENABLED = "hoodie.datasource.meta.sync.enable";
  /** Hudi's list of the sync tools {@value #META_SYNC_ENABLED} runs. */
  public static final String META_SYNC_TOOLS = "hoodie.meta.sync.client.tool.class";
  /** Hudi's Hive sync tool: the one sync tool Riverbed runs. */
  public static final String HIVE_SYNC_TOOL = "org.apache.hudi.hive.HiveSyncTool";
  public static final String INDEX_TYPE = "hoodie.index.type";
  public static final String BUCKET_NUM = "hoodie.bucket.index.num.buckets";
  public static final String BUCKET_HASH_FIELD = "hoodie.bucket.index.hash.field";
  public static final String BUCKET_ENGINE = "hoodie.index.bucket.engine";
  /** Hudi's payload class whose records are deletes. */
  public static final String EMPTY_PAYLOAD = "org.apache.hudi.common.model.EmptyHoodieRecordPayload";

  private static final Set<WriteOperationType> OPERATIONS = Set.of(WriteOperationType.UPSERT,
      WriteOperationType.INSERT, WriteOperationType.BULK_INSERT, WriteOperationType.DELETE,
      WriteOperationType.INSERT_OVERWRITE, WriteOperationType.INSERT_OVERWRITE_TABLE,
      WriteOperationType.DELETE_PARTITION);
  /**
   * Option prefixes this class leaves to others: Hudi's meta sync options (read by the engine's
   * Hive sync, which validates them) and the reader's, which Spark hands the writer too when a job
   * sets them on the session.
   */
  private static final Set<String> ACCEPTED_PREFIXES = Set.of("hoodie.datasource.hive_sync.", "hoodie.meta.sync.",
      "hoodie.meta_sync.", "hoodie.datasource.meta_sync.", "hoodie.datasource.query.", "hoodie.datasource.read.");

  /** Each option's key → {default, description}, for documentation. */
  public static final Map<String, String[]> DESCRIPTIONS = descriptions();

  public BatchWriteOptions {
    partitionsToDelete = List.copyOf(partitionsToDelete);
    bucketHashFields = List.copyOf(bucketHashFields);
    raw = Map.copyOf(raw);
  }

  /**
   * Reads a batch write's options.
   *
   * @throws InvalidTableException naming the option when it is a {@code hoodie.*} option this
   *     writer does not know, or its value is not supported
   */
  public static BatchWriteOptions fromMap(Map<String, String> conf) {
    requireKnownOptions(conf);
    WriteOperationType operation = operation(conf.getOrDefault(OPERATION, "upsert"));
    TableType type = tableType(conf.getOrDefault(TABLE_TYPE, "COPY_ON_WRITE"));
    String name = firstNonBlank(conf.get(TABLE_NAME), conf.get(WRITE_TABLE_NAME));
    String payload = conf.get(PAYLOAD_CLASS);
    boolean deletesAll = payload != null && payload.trim().equals(EMPTY_PAYLOAD);
    WriteOptions write = WriteOptions.fromMap(conf);
    if (deletesAll) {
      write = write.withPayloadClass(null);
    }
    ConcurrencyOptions concurrency;
    try {
      concurrency = ConcurrencyOptions.fromMap(conf);
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException("hudi: " + e.getMessage());
    }
    int buckets = numBuckets(conf, operation);
    tableVersion(conf); // a malformed version fails before anything is written
    return new BatchWriteOptions(operation, type, name, deletesAll, parallelism(conf, operation),
        partitionsToDelete(conf.get(PARTITIONS_TO_DELETE)), smallFileGroupCandidates(conf), write, concurrency, buckets,
        buckets == 0 ? List.of() : KeyGeneratorOptions.splitFields(conf.getOrDefault(BUCKET_HASH_FIELD, "")),
        conf);
  }

  /** True with {@value #INDEX_TYPE}=BUCKET: keys are placed by hashing, not looked up. */
  public boolean bucketIndex() {
    return numBuckets > 0;
  }

  /**
   * {@value WriteTableVersion#KEY}: the version of a table the write creates, and of an existing one when set.
   *
   * @throws InvalidTableException naming the option when its value is not 6 or 8
   */
  public WriteTableVersion tableVersion() {
    return tableVersion(raw);
  }

  private static WriteTableVersion tableVersion(Map<String, String> conf) {
    try {
      return WriteTableVersion.fromMap(conf);
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException("hudi: " + e.getMessage());
    }
  }

  /**
   * {@value #BUCKET_NUM} with the bucket index, 0 without. The Spark writer knows Riverbed's key
   * lookup (the partitions' latest slices, logs included: the default) and Hudi's simple-engine
   * bucket index; any other index is refused, as is an operation the bucket index does not place.
   */
  private static int numBuckets(Map<String, String> conf, WriteOperationType operation) {
    String type = conf.get(INDEX_TYPE);
    if (type == null || type.isBlank()) {
      return 0;
    }
    if (!type.trim().equalsIgnoreCase("BUCKET")) {
      throw new InvalidTableException("option " + INDEX_TYPE + "='" + type + "' is not supported by Riverbed's "
          + "Spark writer: it finds existing keys by reading the partitions' latest file slices, logs included "
          + "(leave the option unset), or places them with BUCKET");
    }
    String engine = conf.getOrDefault(BUCKET_ENGINE, "SIMPLE").trim();
    if (!engine.equalsIgnoreCase("SIMPLE")) {
      throw new InvalidTableException("option " + BUCKET_ENGINE + "='" + engine + "' is not supported: Riverbed "
          + "writes Hudi's SIMPLE bucket index only");
    }
    if (operation != WriteOperationType.UPSERT && operation != WriteOperationType.INSERT
        && operation != WriteOperationType.DELETE && operation != WriteOperationType.DELETE_PARTITION) {
      throw new InvalidTableException("option " + INDEX_TYPE + "=BUCKET supports the operations upsert, insert, "
          + "delete and delete_partition in Riverbed's Spark writer, not " + operation.value());
    }
    String value = conf.getOrDefault(BUCKET_NUM, "256").trim();
    try {
      int n = Integer.parseInt(value);
      if (n <= 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new InvalidTableException("option " + BUCKET_NUM + "='" + value + "' is not a number of buckets (1 or more)");
    }
  }

  /** The prefixes of Hudi's meta sync options, which the sync reads and the writer passes through. */
  private static final List<String> META_SYNC_PREFIXES = List.of("hoodie.datasource.hive_sync.", "hoodie.meta.sync.",
      "hoodie.meta_sync.", "hoodie.datasource.meta_sync.", "hoodie.datasource.meta.sync.");

  /** Whether {@code key} is one of Hudi's meta sync options ({@code hoodie.datasource.hive_sync.*}, {@code hoodie.meta.sync.*}, ...). */
  public static boolean isMetaSyncOption(String key) {
    return META_SYNC_PREFIXES.stream().anyMatch(key::startsWith);
  }

  /** Whether the write asks for a metastore sync after its commit ({@value #HIVE_SYNC_ENABLED} or {@value #META_SYNC_ENABLED}). */
  public boolean metaSyncEnabled() {
    return flag(HIVE_SYNC_ENABLED) || flag(META_SYNC_ENABLED);
  }

  private boolean flag(String key) {
    return Boolean.parseBoolean(raw.getOrDefault(key, "false").trim());
  }

  /** The key generator options for a table this write creates (the table's own config decides for an existing one). */
  public KeyGeneratorOptions keyGenerator() {
    return KeyGeneratorOptions.fromMap(raw);
  }

  /** True if the write changes existing keys in place, so their file groups must be looked up first. */
  public boolean looksUpKeys() {
    return operation == WriteOperationType.UPSERT || operation == WriteOperationType.DELETE;
  }

  /** True if the write replaces file groups (a replacecommit): the overwrite operations and delete_partition. */
  public boolean replaces() {
    return operation.isReplace();
  }

  /** True if every change of the batch is a delete (the delete operation, or the empty payload class). */
  public boolean deletes() {
    return operation == WriteOperationType.DELETE || deletesAll;
  }

  private static WriteOperationType operation(String value) {
    return WriteOperationType.fromValue(value.trim()).filter(OPERATIONS::contains)
        .orElseThrow(() -> new InvalidTableException("option " + OPERATION + "='" + value + "' is not supported by "
            + "Riverbed's Spark writer; it supports upsert, insert, bulk_insert, delete, insert_overwrite, "
            + "insert_overwrite_table and delete_partition"));
  }

  private static TableType tableType(String value) {
    try {
      return TableType.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidTableException("option " + TABLE_TYPE + "='" + value + "' is neither COPY_ON_WRITE nor "
          + "MERGE_ON_READ");
    }
  }

  private static int parallelism(Map<String, String> conf, WriteOperationType operation) {
    String key = switch (operation) {
      case INSERT, INSERT_OVERWRITE, INSERT_OVERWRITE_TABLE -> INSERT_PARALLELISM;
      case BULK_INSERT -> BULK_INSERT_PARALLELISM;
      case DELETE -> DELETE_PARALLELISM;
      default -> UPSERT_PARALLELISM;
    };
    return count(conf, key, 0, "tasks");
  }

  private static int smallFileGroupCandidates(Map<String, String> conf) {
    return count(conf, SMALL_FILE_GROUP_CANDIDATES, 1, "file groups");
  }

  private static int count(Map<String, String> conf, String key, int unset, String what) {
    String value = conf.get(key);
    if (value == null || value.isBlank()) {
      return unset;
    }
    try {
      int n = Integer.parseInt(value.trim());
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new InvalidTableException("option " + key + "='" + value + "' is not a number of " + what + " (0 or more)");
    }
  }

  private static List<String> partitionsToDelete(String value) {
    if (value == null || value.isBlank()) {
      return List.of();
    }
    return Arrays.stream(value.split(",")).map(String::trim).filter(p -> !p.isEmpty()).toList();
  }

  private static void requireKnownOptions(Map<String, String> conf) {
    Set<String> unknown = new TreeSet<>();
    for (String key : conf.keySet()) {
      if (key.startsWith("hoodie.") && !knownKeys().contains(key)
          && ACCEPTED_PREFIXES.stream().noneMatch(key::startsWith)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new InvalidTableException("option" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
          + (unknown.size() > 1 ? " are" : " is") + " not supported by Riverbed's Spark writer (docs/OPTIONS.md lists "
          + "what it reads); remove " + (unknown.size() > 1 ? "them" : "it") + " or see docs/MIGRATING_FROM_HUDI.md");
    }
  }

  private static Set<String> knownKeys() {
    Set<String> keys = new TreeSet<>(DESCRIPTIONS.keySet());
    keys.addAll(WriteOptions.DESCRIPTIONS.keySet());
    keys.addAll(BaseFileOptions.DESCRIPTIONS.keySet());
    keys.addAll(KeyGeneratorOptions.DESCRIPTIONS.keySet());
    keys.addAll(ConcurrencyOptions.DESCRIPTIONS.keySet());
    keys.addAll(WriteTableVersion.DESCRIPTIONS.keySet());
    keys.add(WRITE_TABLE_NAME);
    return keys;
  }

  private static String firstNonBlank(String a, String b) {
    if (a != null && !a.isBlank()) {
      return a.trim();
    }
    return b == null || b.isBlank() ? null : b.trim();
  }

  private static Map<String, String[]> descriptions() {
    var d = new LinkedHashMap<String, String[]>();
    d.put(OPERATION, new String[] {"upsert", "upsert, insert, bulk_insert, delete, insert_overwrite, "
        + "insert_overwrite_table or delete_partition. insert and bulk_insert do not look existing keys up (as in "
        + "Hudi); bulk_insert writes base files on MERGE_ON_READ too. insert_overwrite replaces the partitions the "
        + "batch writes, insert_overwrite_table every partition, delete_partition the partitions named by "
        + PARTITIONS_TO_DELETE + ": a replacecommit, as Hudi writes it."});
    d.put(TABLE_TYPE, new String[] {"COPY_ON_WRITE", "Type of a table the write creates; an existing table keeps its own."});
    d.put(TABLE_NAME, new String[] {"", "Name of a table the write creates (also " + WRITE_TABLE_NAME + ")."});
    d.put(UPSERT_PARALLELISM, new String[] {"0", "Tasks that write an upsert; 0 = the input's partition count."});
    d.put(INSERT_PARALLELISM, new String[] {"0", "Tasks that write an insert; 0 = the input's partition count."});
    d.put(BULK_INSERT_PARALLELISM, new String[] {"0", "Tasks that write a bulk_insert; 0 = the input's partition count."});
    d.put(PARTITIONS_TO_DELETE, new String[] {"", "delete_partition: comma-separated partition paths to delete, "
        + "* a wildcard (a/*); unset: the partitions of the batch's rows. A path the table does not have replaces "
        + "nothing, as in Hudi."});
    d.put(SMALL_FILE_GROUP_CANDIDATES, new String[] {"1", "insert and upsert into MERGE_ON_READ: new keys go to "
        + "base files, first into this many of a partition's smallest file groups whose latest slice is a base file "
        + "below hoodie.parquet.small.file.limit and no logs (each rewritten with the batch's updates of its keys), "
        + "then into new file groups; updates of other file groups are appended to logs. 0: new file groups only. "
        + "As Hudi 0.15's Spark writer with its default index."});
    d.put(DELETE_PARALLELISM, new String[] {"0", "Tasks that write a delete; 0 = the input's partition count."});
    d.put(HIVE_SYNC_ENABLED, new String[] {"false", "Sync the table to the Hive Metastore after the commit (also "
        + META_SYNC_ENABLED + "), with the hoodie.datasource.hive_sync.* / hoodie.meta.sync.* options of docs/HIVE_SYNC.md."});
    d.put(META_SYNC_ENABLED, new String[] {"false", "Run the sync tools of " + META_SYNC_TOOLS + " after the commit."});
    d.put(META_SYNC_TOOLS, new String[] {HIVE_SYNC_TOOL, "The sync tools " + META_SYNC_ENABLED + " runs; only "
        + HIVE_SYNC_TOOL + " (Hive Metastore, hms mode) is supported, another is an error before the write."});
    d.put(INDEX_TYPE, new String[] {"", "Unset: existing keys are found by reading the latest file slices of the "
        + "partitions the batch touches (base and log files). BUCKET: keys are placed by Hudi's simple bucket index "
        + "(hash of " + BUCKET_HASH_FIELD + " mod " + BUCKET_NUM + "), as the Flink writer's index.type=BUCKET "
        + "places them: the safe setup beside a Flink writer (CONCURRENT_WRITERS.md); upsert, insert, delete and "
        + "delete_partition. Other index types are refused."});
    d.put(BUCKET_NUM, new String[] {"256", "Buckets of the bucket index per partition; must be what every writer "
        + "of the table uses."});
    d.put(BUCKET_HASH_FIELD, new String[] {"", "Record key fields hashed by the bucket index; empty = the record "
        + "key fields."});
    d.put(BUCKET_ENGINE, new String[] {"SIMPLE", "The bucket index engine; only SIMPLE is supported."});
    return Collections.unmodifiableMap(d);
  }
}
