package io.riverbed.spark.write;

import io.riverbed.format.InvalidRecordException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Converts Spark rows to Avro records of a write schema, column by name: the record's fields are
 * the write schema's (the table's, for an existing table), each read from the row's column of
 * that name; a column narrower than its field (int for a long, say: the table's column was
 * widened) is promoted. Built once per schema pair; each conversion allocates only the record.
 */
public final class RowToAvro {
  private static final Conversions.DecimalConversion DECIMALS = new Conversions.DecimalConversion();

  @FunctionalInterface
  private interface Converter {
    Object convert(Object sparkValue);
  }

  private final Schema schema;
  private final int[] ordinals;
  private final DataType[] types;
  private final Converter[] converters;
  private final String[] names;
  private final boolean[] nullable;

  /**
   * @param rowType the rows' Spark type
   * @param schema the record schema to write; every field must be a column of {@code rowType}
   */
  public RowToAvro(StructType rowType, Schema schema) {
    this.schema = schema;
    List<Schema.Field> fields = schema.getFields();
    ordinals = new int[fields.size()];
    types = new DataType[fields.size()];
    converters = new Converter[fields.size()];
    names = new String[fields.size()];
    nullable = new boolean[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Schema.Field f = fields.get(i);
      int ordinal = ordinalOf(rowType, f.name());
      StructField column = rowType.fields()[ordinal];
      ordinals[i] = ordinal;
      types[i] = column.dataType();
      names[i] = f.name();
      nullable[i] = isNullable(f.schema());
      converters[i] = converter(column.dataType(), nonNull(f.schema()), f.name());
    }
  }

  public GenericRecord convert(InternalRow row) {
    GenericData.Record record = new GenericData.Record(schema);
    for (int i = 0; i < ordinals.length; i++) {
      if (row.isNullAt(ordinals[i])) {
        if (!nullable[i]) {
          throw new InvalidRecordException("column '" + names[i] + "' is null in a written row, but the table's "
              + "column is not nullable");
        }
        continue;
      }
      record.put(i, converters[i].convert(row.get(ordinals[i], types[i])));
    }
    return record;
  }

  private static int ordinalOf(StructType type, String name) {
    String[] names = type.fieldNames();
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    for (int i = 0; i < names.length; i++) {
      if (names[i].equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new InvalidRecordException("column '" + name + "' is not in the written rows (" + String.join(", ", names) + ")");
  }

  private static Converter converter(DataType type, Schema avro, String name) {
    if (isNumber(type) && avro.getLogicalType() == null) {
      return numberAs(type, avro.getType());
    }
    if (type instanceof DecimalType) {
      var logical = (LogicalTypes.Decimal) avro.getLogicalType();
      boolean fixed = avro.getType() == Schema.Type.FIXED;
      return v -> {
        BigDecimal d = ((org.apache.spark.sql.types.Decimal) v).toJavaBigDecimal().setScale(logical.getScale());
        return fixed ? DECIMALS.toFixed(d, avro, logical) : DECIMALS.toBytes(d, avro, logical);
      };
    }
    if (avro.getLogicalType() instanceof LogicalTypes.TimestampMillis
        || avro.getLogicalType() instanceof LogicalTypes.LocalTimestampMillis) {
      return v -> Math.floorDiv((Long) v, 1000L);
    }
    if (type instanceof StructType s) {
      RowToAvro nested = new RowToAvro(s, avro);
      return v -> nested.convert((InternalRow) v);
    }
    if (type instanceof ArrayType a) {
      DataType elementType = a.elementType();
      Converter element = converter(elementType, nonNull(avro.getElementType()), name);
      return v -> {
        ArrayData data = (ArrayData) v;
        List<Object> out = new ArrayList<>(data.numElements());
        for (int i = 0; i < data.numElements(); i++) {
          out.add(data.isNullAt(i) ? null : element.convert(data.get(i, elementType)));
        }
        return out;
      };
    }
    if (type instanceof MapType m) {
      DataType valueType = m.valueType();
      Converter value = converter(valueType, nonNull(avro.getValueType()), name);
      return v -> {
        MapData data = (MapData) v;
        Map<String, Object> out = new HashMap<>(data.numElements() * 2);
        ArrayData keys = data.keyArray();
        ArrayData values = data.valueArray();
        for (int i = 0; i < data.numElements(); i++) {
          out.put(keys.getUTF8String(i).toString(), values.isNullAt(i) ? null : value.convert(values.get(i, valueType)));
        }
        return out;
      };
    }
    return switch (avro.getType()) {
      case STRING -> Object::toString;
      case BYTES -> v -> ByteBuffer.wrap((byte[]) v);
      default -> v -> v;
    };
  }

  private static boolean isNumber(DataType type) {
    return type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType || type instanceof LongType
        || type instanceof FloatType || type instanceof DoubleType;
  }

  /** A Spark number as the Avro type of its field: bytes and shorts as ints, and the widening promotions. */
  private static Converter numberAs(DataType type, Schema.Type avro) {
    boolean same = switch (avro) {
      case INT -> type instanceof IntegerType;
      case LONG -> type instanceof LongType;
      case FLOAT -> type instanceof FloatType;
      case DOUBLE -> type instanceof DoubleType;
      default -> true;
    };
    if (same) {
      return v -> v;
    }
    return switch (avro) {
      case INT -> v -> ((Number) v).intValue();
      case LONG -> v -> ((Number) v).longValue();
      case FLOAT -> v -> ((Number) v).floatValue();
      default -> v -> ((Number) v).doubleValue();
    };
  }

  private static boolean isNullable(Schema s) {
    return s.getType() == Schema.Type.UNION && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL);
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    return s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElse(s);
  }
}
