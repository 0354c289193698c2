package io.riverbed.format.record;

import io.riverbed.format.InvalidRecordException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Record keys and partition paths of Avro records exactly as Hudi 0.15's Simple, Complex and
 * Nonpartitioned key generators compute them (format doc §1.5, §4.1).
 *
 * <ul>
 *   <li>one record key field: the value's string form; null or empty fails;
 *   <li>several: {@code f1:v1,f2:v2}, null as {@code __null__}, empty as {@code __empty__}; fails
 *       when every value is null or empty;
 *   <li>partition path: values joined by {@code /}, {@code field=value} when hive style, null or
 *       empty as {@code __HIVE_DEFAULT_PARTITION__}, Hive path escaping when url-encoded, {@code ""}
 *       when non-partitioned; a value that would not stay a folder inside the table is refused
 *       (the confinement rule of {@link PartitionPaths}).
 * </ul>
 *
 * <p>Field positions are resolved once per schema ({@link #forSchema}); the per-record calls reuse
 * the resolution of the last schema seen. Thread-safe.
 */
public final class KeyGenerator {
  /** Complex key placeholder for a null value. */
  public static final String NULL_PLACEHOLDER = "__null__";
  /** Complex key placeholder for an empty value. */
  public static final String EMPTY_PLACEHOLDER = "__empty__";
  private static final int MAX_RECORD_CHARS = 500;

  /** A record's key and partition path. */
  public record Key(String recordKey, String partitionPath) {}

  private final KeyGeneratorOptions options;
  private volatile Bound lastBound;

  private KeyGenerator(KeyGeneratorOptions options) {
    this.options = options;
  }

  public static KeyGenerator of(KeyGeneratorOptions options) {
    return new KeyGenerator(options);
  }

  /** From Hudi's configuration keys (see {@link KeyGeneratorOptions#fromMap}). */
  public static KeyGenerator fromMap(Map<String, String> conf) {
    return new KeyGenerator(KeyGeneratorOptions.fromMap(conf));
  }

  public KeyGeneratorOptions options() {
    return options;
  }

  public KeyGeneratorType type() {
    return options.type();
  }

  /** The value for {@code hoodie.table.keygenerator.class}. */
  public String className() {
    return options.type().className();
  }

  /**
   * This generator with field positions resolved for records of {@code schema}.
   *
   * @throws InvalidRecordException naming the field and the schema when a key or partition field
   *     is not in the schema
   */
  public Bound forSchema(Schema schema) {
    Bound bound = lastBound;
    if (bound != null && bound.schema == schema) {
      return bound;
    }
    bound = new Bound(schema);
    lastBound = bound;
    return bound;
  }

  public String recordKey(IndexedRecord record) {
    return forSchema(record.getSchema()).recordKey(record);
  }

  public String partitionPath(IndexedRecord record) {
    return forSchema(record.getSchema()).partitionPath(record);
  }

  public Key key(IndexedRecord record) {
    Bound bound = forSchema(record.getSchema());
    return new Key(bound.recordKey(record), bound.partitionPath(record));
  }

  /**
   * Partition column values encoded in {@code partitionPath} (null for the default partition),
   * the inverse of {@link #partitionPath}.
   */
  public Map<String, String> partitionValues(String partitionPath) {
    return PartitionPaths.parse(partitionPath, options.partitionFields(), options.hiveStylePartitioning(),
        options.urlEncodePartitionPath());
  }

  /**
   * The record key field values {@code recordKey} holds, the inverse of {@link Bound#recordKey}:
   * the whole key for a single key field; for several, each {@code field:value} pair, the null and
   * empty placeholders read back as null and empty.
   *
   * @throws InvalidRecordException if the key does not have the {@code field:value} form of the
   *     table's key fields
   */
  public Map<String, String> recordKeyValues(String recordKey) {
    List<String> fields = options.recordKeyFields();
    Map<String, String> values = new LinkedHashMap<>();
    if (fields.size() == 1) {
      values.put(fields.get(0), recordKey);
      return values;
    }
    int at = 0;
    for (int i = 0; i < fields.size(); i++) {
      String prefix = (i == 0 ? "" : ",") + fields.get(i) + ":";
      if (!recordKey.startsWith(prefix, at)) {
        throw new InvalidRecordException("record key \"" + recordKey + "\" does not hold the key fields " + fields
            + " as field:value pairs");
      }
      int start = at + prefix.length();
      int end = i + 1 < fields.size() ? recordKey.indexOf("," + fields.get(i + 1) + ":", start) : recordKey.length();
      if (end < 0) {
        throw new InvalidRecordException("record key \"" + recordKey + "\" lacks key field '" + fields.get(i + 1) + "'");
      }
      String value = recordKey.substring(start, end);
      values.put(fields.get(i), value.equals(NULL_PLACEHOLDER) ? null : value.equals(EMPTY_PLACEHOLDER) ? "" : value);
      at = end;
    }
    return values;
  }

  /** Key extraction for one schema, with field positions resolved. */
  public final class Bound {
    private final Schema schema;
    private final FieldPaths.FieldPath[] keyPaths;
    private final FieldPaths.FieldPath[] partitionPaths;

    private Bound(Schema schema) {
      this.schema = schema;
      this.keyPaths = resolveAll(schema, options.recordKeyFields(), "record key");
      this.partitionPaths = resolveAll(schema, options.partitionFields(), "partition path");
    }

    public Schema schema() {
      return schema;
    }

    public String recordKey(IndexedRecord record) {
      if (keyPaths.length == 0) {
        throw new InvalidRecordException("the table has no record key field: its writers generate the record keys "
            + "(" + GeneratedRecordKeys.class.getSimpleName() + "), so record " + describe(record)
            + " has no key of its own");
      }
      boolean consistent = options.consistentLogicalTimestamp();
      if (keyPaths.length == 1) {
        FieldPaths.FieldPath path = keyPaths[0];
        String value = path.stringValue(record, consistent);
        if (value == null || value.isEmpty()) {
          throw new InvalidRecordException("record key field '" + path.path() + "' is "
              + (value == null ? "null" : "empty") + " (a record key cannot be null or empty) in record "
              + describe(record));
        }
        return value;
      }
      var key = new StringBuilder(32 * keyPaths.length);
      boolean allNullOrEmpty = true;
      for (int i = 0; i < keyPaths.length; i++) {
        if (i > 0) {
          key.append(',');
        }
        String value = keyPaths[i].stringValue(record, consistent);
        key.append(keyPaths[i].path()).append(':');
        if (value == null) {
          key.append(NULL_PLACEHOLDER);
        } else if (value.isEmpty()) {
          key.append(EMPTY_PLACEHOLDER);
        } else {
          key.append(value);
          allNullOrEmpty = false;
        }
      }
      if (allNullOrEmpty) {
        throw new InvalidRecordException("record key values \"" + key + "\" for fields "
            + options.recordKeyFields() + " are all null or empty in record " + describe(record));
      }
      return key.toString();
    }

    /**
     * The record's partition path, each value checked by the confinement rule of
     * {@link PartitionPaths}.
     *
     * @throws InvalidRecordException naming the record key, the partition field and the value as
     *     the record holds it when a value would not stay a folder inside the table
     */
    public String partitionPath(IndexedRecord record) {
      if (partitionPaths.length == 0) {
        return "";
      }
      if (partitionPaths.length == 1) {
        return segment(record, partitionPaths[0]);
      }
      var out = new StringBuilder(16 * partitionPaths.length);
      for (int i = 0; i < partitionPaths.length; i++) {
        if (i > 0) {
          out.append(PartitionPaths.SEPARATOR);
        }
        out.append(segment(record, partitionPaths[i]));
      }
      return out.toString();
    }

    private String segment(IndexedRecord record, FieldPaths.FieldPath path) {
      String value = path.stringValue(record, options.consistentLogicalTimestamp());
      String text = PartitionPaths.valueText(value, options.urlEncodePartitionPath());
      var why = PartitionPaths.refusal(text);
      if (why.isPresent()) {
        throw new InvalidRecordException("record key " + keyForMessage(record) + ": "
            + PartitionPaths.refusedMessage(path.path(), value, why.get())
            + (partitionPaths.length > 1 ? " (partition fields " + options.partitionFields() + ")" : ""));
      }
      return options.hiveStylePartitioning() ? path.path() + "=" + text : text;
    }

    private String keyForMessage(IndexedRecord record) {
      if (keyPaths.length == 0) {
        return "(generated)";
      }
      try {
        return PartitionPaths.quote(recordKey(record));
      } catch (InvalidRecordException noKey) {
        return "(none: the record key fields " + options.recordKeyFields() + " are null or empty)";
      }
    }
  }

  private static FieldPaths.FieldPath[] resolveAll(Schema schema, List<String> fields, String role) {
    var paths = new ArrayList<FieldPaths.FieldPath>(fields.size());
    for (String field : fields) {
      paths.add(FieldPaths.resolve(schema, field).orElseThrow(() -> new InvalidRecordException(
          role + " field '" + field + "' is not in schema " + schema.getFullName() + " (fields: "
              + FieldPaths.allPaths(schema) + ")")));
    }
    return paths.toArray(new FieldPaths.FieldPath[0]);
  }

  /** A record's text, cut to a readable length for error messages. */
  static String describe(IndexedRecord record) {
    String text = String.valueOf(record);
    return text.length() <= MAX_RECORD_CHARS ? text : text.substring(0, MAX_RECORD_CHARS) + "...(truncated)";
  }
}
