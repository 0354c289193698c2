package io.riverbed.hive;

import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Hive column types of a Parquet schema, by Apache Hudi's mapping (its {@code HiveSchemaUtil}), so
 * a table registered by Riverbed has the column types Hudi's sync gives it: strings and enums as
 * {@code string}, int32/int64 as {@code int}/{@code bigint} (timestamps as {@code bigint} unless
 * timestamps are supported), decimals as {@code decimal(p,s)}, Avro fixed as {@code binary},
 * lists, maps and records as {@code array<>}, {@code map<>} and {@code struct<>}. Types are
 * lower case, without spaces, as Hudi's metastore sync writes them.
 */
public final class HiveTypes {
  private HiveTypes() {}

  /** The Hive type of one top-level column. */
  public static String of(Type field, boolean supportTimestamp) {
    String type = field.isRepetition(Type.Repetition.REPEATED)
        ? array(field, "", supportTimestamp)
        : convert(field, supportTimestamp);
    return type.toLowerCase(java.util.Locale.ROOT);
  }

  private static String convert(Type type, boolean supportTimestamp) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    if (type.isPrimitive()) {
      PrimitiveType primitive = type.asPrimitiveType();
      if (logical instanceof DecimalLogicalTypeAnnotation decimal) {
        return "DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + ")";
      }
      if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
        return "DATE";
      }
      if (supportTimestamp && logical instanceof TimestampLogicalTypeAnnotation ts
          && (ts.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS || ts.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS)) {
        return "TIMESTAMP";
      }
      return switch (primitive.getPrimitiveTypeName()) {
        case BOOLEAN -> "boolean";
        case INT32 -> "int";
        case INT64 -> "bigint";
        case INT96 -> "timestamp-millis";
        case FLOAT -> "float";
        case DOUBLE -> "double";
        case FIXED_LEN_BYTE_ARRAY -> "binary";
        case BINARY -> logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation ? "string" : "binary";
      };
    }
    GroupType group = type.asGroupType();
    if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      if (group.getFieldCount() != 1 || !group.getType(0).isRepetition(Type.Repetition.REPEATED)) {
        throw new HiveSyncException("invalid Parquet list type " + group);
      }
      return array(group.getType(0), group.getName(), supportTimestamp);
    }
    if (logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
      if (group.getFieldCount() != 1 || group.getType(0).isPrimitive()) {
        throw new HiveSyncException("invalid Parquet map type " + group);
      }
      GroupType keyValue = group.getType(0).asGroupType();
      if (!keyValue.isRepetition(Type.Repetition.REPEATED) || keyValue.getFieldCount() != 2) {
        throw new HiveSyncException("invalid Parquet map type " + group);
      }
      Type key = keyValue.getType(0);
      if (!key.isPrimitive() || key.asPrimitiveType().getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY
          || !(key.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)) {
        throw new HiveSyncException("map key type must be a string: " + key);
      }
      return "MAP<" + convert(key, supportTimestamp) + "," + convert(keyValue.getType(1), supportTimestamp) + ">";
    }
    if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation) {
      return "string";
    }
    if (logical != null) {
      throw new HiveSyncException("cannot convert Parquet type " + type + " to a Hive type");
    }
    return struct(group.getFields(), supportTimestamp);
  }

  private static String struct(List<Type> fields, boolean supportTimestamp) {
    StringBuilder out = new StringBuilder("STRUCT<");
    for (int i = 0; i < fields.size(); i++) {
      Type f = fields.get(i);
      out.append(i == 0 ? "" : ",").append(f.getName().replace("$", "_dollar_")).append(':')
          .append(convert(f, supportTimestamp));
    }
    return out.append('>').toString().replace('-', '_');
  }

  private static String array(Type element, String listName, boolean supportTimestamp) {
    String inner;
    if (element.isPrimitive()) {
      inner = convert(element, supportTimestamp);
    } else {
      GroupType group = element.asGroupType();
      boolean elementIsTheGroup = group.getFieldCount() > 1
          || (group.getFieldCount() == 1 && (element.getName().equals("array") || element.getName().equals(listName + "_tuple")));
      inner = convert(elementIsTheGroup ? element : group.getType(0), supportTimestamp);
    }
    return "ARRAY<" + inner + ">";
  }

  /**
   * Whether a column registered as {@code from} may be changed to {@code to}: Hudi allows equal
   * types, int to bigint, float to double and any struct change; anything else fails the sync.
   */
  public static boolean updateAllowed(String from, String to) {
    String a = normalize(from);
    String b = normalize(to);
    return a.equals(b) || (a.equals("int") && b.equals("bigint")) || (a.equals("float") && b.equals("double"))
        || (a.contains("struct") && b.contains("struct"));
  }

  /** A type as compared: lower case, without spaces or backticks. */
  public static String normalize(String type) {
    return type.replaceAll("\\s+", "").replace("`", "").toLowerCase(java.util.Locale.ROOT);
  }
}
