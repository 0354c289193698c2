package io.riverbed.hive;

import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * A Parquet schema as the Spark {@code StructType} JSON that Apache Hudi's sync stores in
 * {@code spark.sql.sources.schema.part.N} (its {@code Parquet2SparkSchemaUtils}, text for text), so
 * Spark SQL sees the same columns and types whichever tool registered the table.
 */
public final class SparkSchemaJson {
  private SparkSchemaJson() {}

  /** The struct JSON of the given fields, in order. */
  public static String of(List<Type> fields) {
    StringBuilder out = new StringBuilder("{\"type\":\"struct\",\"fields\":[");
    for (int i = 0; i < fields.size(); i++) {
      Type f = fields.get(i);
      out.append(i == 0 ? "" : ",");
      switch (f.getRepetition()) {
        case OPTIONAL -> out.append(field(f.getName(), type(f), true));
        case REQUIRED -> out.append(field(f.getName(), type(f), false));
        case REPEATED -> out.append(field(f.getName(), array(f, false), false));
        default -> throw new HiveSyncException("cannot convert " + f + " to a Spark type");
      }
    }
    return out.append("]}").toString();
  }

  private static String field(String name, String type, boolean nullable) {
    return "{\"name\":\"" + name + "\",\"type\":" + type + ",\"nullable\":" + nullable + ",\"metadata\":{}}";
  }

  private static String type(Type field) {
    return field.isPrimitive() ? "\"" + primitive(field.asPrimitiveType()) + "\"" : group(field.asGroupType());
  }

  private static String primitive(PrimitiveType field) {
    LogicalTypeAnnotation logical = field.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
      return "decimal(" + d.getPrecision() + "," + d.getScale() + ")";
    }
    return switch (field.getPrimitiveTypeName()) {
      case BOOLEAN -> "boolean";
      case FLOAT -> "float";
      case DOUBLE -> "double";
      case INT32 -> {
        if (logical == null) {
          yield "integer";
        }
        if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i) {
          yield switch (i.getBitWidth()) {
            case 8 -> "byte";
            case 16 -> "short";
            case 32 -> "integer";
            default -> throw unsupported(field);
          };
        }
        if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          yield "date";
        }
        throw unsupported(field);
      }
      case INT64 -> {
        if (logical == null || (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.getBitWidth() == 64)) {
          yield "long";
        }
        if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t
            && t.getUnit() != LogicalTypeAnnotation.TimeUnit.NANOS) {
          yield "timestamp";
        }
        throw unsupported(field);
      }
      case INT96 -> "timestamp";
      case BINARY -> {
        if (logical == null || logical instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation) {
          yield "binary";
        }
        if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
          yield "string";
        }
        throw unsupported(field);
      }
      case FIXED_LEN_BYTE_ARRAY -> throw unsupported(field);
    };
  }

  private static String group(GroupType field) {
    LogicalTypeAnnotation logical = field.getLogicalTypeAnnotation();
    if (logical == null) {
      return of(field.getFields());
    }
    if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      if (field.getFieldCount() != 1) {
        throw new HiveSyncException("invalid Parquet list type " + field);
      }
      Type repeated = field.getType(0);
      if (isElement(repeated, field.getName())) {
        return array(repeated, false);
      }
      Type element = repeated.asGroupType().getType(0);
      return array(element, element.isRepetition(Type.Repetition.OPTIONAL));
    }
    if (logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
      GroupType keyValue = field.getType(0).asGroupType();
      Type value = keyValue.getType(1);
      return "{\"type\":\"map\", \"keyType\":" + type(keyValue.getType(0)) + ",\"valueType\":" + type(value)
          + ",\"valueContainsNull\":" + value.isRepetition(Type.Repetition.OPTIONAL) + "}";
    }
    throw new HiveSyncException("cannot convert " + field + " to a Spark type");
  }

  private static String array(Type element, boolean containsNull) {
    return "{\"type\":\"array\", \"elementType\":" + type(element) + ",\"containsNull\":" + containsNull + "}";
  }

  private static boolean isElement(Type repeated, String parentName) {
    return repeated.isPrimitive() || repeated.asGroupType().getFieldCount() > 1
        || repeated.getName().equals("array") || repeated.getName().equals(parentName + "_tuple");
  }

  private static HiveSyncException unsupported(PrimitiveType field) {
    return new HiveSyncException("cannot convert " + field + " to a Spark type");
  }
}
