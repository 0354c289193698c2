package io.riverbed.format.record;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * Dotted field paths ({@code a.b.c}) resolved once against an Avro schema into field positions, and
 * the string form of a field value as Hudi's key generators compute it
 * ({@code HoodieAvroUtils.getNestedFieldValAsString}).
 */
public final class FieldPaths {
  private static final Conversions.DecimalConversion DECIMALS = new Conversions.DecimalConversion();

  private FieldPaths() {}

  /**
   * A resolved path: positions of each step, the record schema expected at each step and the leaf
   * field's schema. Records whose (nested) schema is not the one resolved against fall back to a
   * lookup by name, so a path stays correct for any record, just slower.
   */
  public record FieldPath(String path, String[] names, int[] positions, Schema[] recordSchemas, Schema leafSchema) {

    /** The raw Avro value, or null when the value or any enclosing record is null or absent. */
    public Object rawValue(IndexedRecord record) {
      IndexedRecord node = record;
      for (int i = 0; ; i++) {
        Object value = valueAt(node, i);
        if (value == null || i == positions.length - 1) {
          return value;
        }
        if (!(value instanceof IndexedRecord nested)) {
          throw new IllegalArgumentException("field '" + names[i] + "' of path '" + path + "' is not a record: " + value);
        }
        node = nested;
      }
    }

    private Object valueAt(IndexedRecord node, int step) {
      if (node.getSchema() == recordSchemas[step]) {
        return node.get(positions[step]);
      }
      Schema.Field field = node.getSchema().getField(names[step]);
      return field == null ? null : node.get(field.pos());
    }

    /**
     * The value as Hudi turns it into key and partition strings: {@code date} as ISO
     * {@code yyyy-MM-dd}, decimals as {@link BigDecimal#toString()}, timestamps as the raw long
     * unless {@code consistentLogicalTimestamp} (then {@link Timestamp#toString()} in the JVM zone,
     * as Hudi does), everything else through {@code toString()}. Null when the value is null.
     */
    public String stringValue(IndexedRecord record, boolean consistentLogicalTimestamp) {
      Object value = rawValue(record);
      return value == null ? null : FieldPaths.toKeyString(leafSchema, value, consistentLogicalTimestamp);
    }
  }

  /** Resolves {@code path} in {@code schema}; empty when any step is missing or not a record. */
  public static Optional<FieldPath> resolve(Schema schema, String path) {
    String[] names = path.split("\\.");
    int[] positions = new int[names.length];
    Schema[] recordSchemas = new Schema[names.length];
    Schema current = schema;
    Schema leaf = null;
    for (int i = 0; i < names.length; i++) {
      Schema record = recordBranch(current);
      if (record == null) {
        return Optional.empty();
      }
      Schema.Field field = record.getField(names[i]);
      if (field == null) {
        return Optional.empty();
      }
      positions[i] = field.pos();
      recordSchemas[i] = record;
      current = field.schema();
      leaf = field.schema();
    }
    return Optional.of(new FieldPath(path, names, positions, recordSchemas, leaf));
  }

  /** Whether {@code path} names a field (possibly nested) of {@code schema}. */
  public static boolean exists(Schema schema, String path) {
    return resolve(schema, path).isPresent();
  }

  /** Top-level and nested field paths of {@code schema}, for error messages. */
  public static List<String> allPaths(Schema schema) {
    var paths = new ArrayList<String>();
    collect(schema, "", paths, 0);
    return paths;
  }

  private static void collect(Schema schema, String prefix, List<String> out, int depth) {
    Schema record = recordBranch(schema);
    if (record == null || depth > 8) {
      return;
    }
    for (Schema.Field field : record.getFields()) {
      String path = prefix + field.name();
      out.add(path);
      collect(field.schema(), path + ".", out, depth + 1);
    }
  }

  /** The schema itself if a record, the first record branch of a union, else null. */
  static Schema recordBranch(Schema schema) {
    if (schema.getType() == Schema.Type.RECORD) {
      return schema;
    }
    if (schema.getType() == Schema.Type.UNION) {
      for (Schema branch : schema.getTypes()) {
        if (branch.getType() == Schema.Type.RECORD) {
          return branch;
        }
      }
    }
    return null;
  }

  /** Hudi's string form of a non-null value of schema {@code fieldSchema} (see {@link FieldPath#stringValue}). */
  public static String toKeyString(Schema fieldSchema, Object value, boolean consistentLogicalTimestamp) {
    Schema schema = fieldSchema;
    if (schema.getType() == Schema.Type.UNION) {
      // Hudi looks at the first non-null branch only
      for (Schema branch : schema.getTypes()) {
        if (branch.getType() != Schema.Type.NULL) {
          schema = branch;
          break;
        }
      }
    }
    LogicalType logical = schema.getLogicalType();
    if (logical == null) {
      return value.toString();
    }
    if (logical instanceof LogicalTypes.Date) {
      return value instanceof LocalDate date ? date.toString() : LocalDate.ofEpochDay(Long.parseLong(value.toString())).toString();
    }
    if (logical instanceof LogicalTypes.Decimal decimal) {
      if (value instanceof GenericFixed fixed && schema.getType() == Schema.Type.FIXED) {
        return DECIMALS.fromFixed(fixed, schema, decimal).toString();
      }
      if (value instanceof ByteBuffer bytes && schema.getType() == Schema.Type.BYTES) {
        return DECIMALS.fromBytes(bytes.duplicate(), schema, decimal).toString();
      }
      return value.toString();
    }
    if (consistentLogicalTimestamp && value instanceof Long micros && logical instanceof LogicalTypes.TimestampMicros) {
      return new Timestamp(micros / 1000).toString();
    }
    if (consistentLogicalTimestamp && value instanceof Long millis && logical instanceof LogicalTypes.TimestampMillis) {
      return new Timestamp(millis).toString();
    }
    return value.toString();
  }
}
