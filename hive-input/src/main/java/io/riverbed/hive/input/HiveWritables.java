package io.riverbed.hive.input;

import io.riverbed.format.record.SchemaEvolution;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.common.type.Timestamp;
import org.apache.hadoop.hive.serde2.io.DateWritableV2;
import org.apache.hadoop.hive.serde2.io.DoubleWritable;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;
import org.apache.hadoop.hive.serde2.io.ShortWritable;
import org.apache.hadoop.hive.serde2.io.TimestampWritableV2;
import org.apache.hadoop.hive.serde2.typeinfo.ListTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.MapTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.StructTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfo;
import org.apache.hadoop.io.ArrayWritable;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.FloatWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/**
 * Turns an Avro value of a table's record into the Hadoop/Hive writable that Hive's
 * {@code ParquetHiveSerDe} inspects for the column's Hive type: primitives as their writables
 * (dates {@link DateWritableV2}, timestamps {@link TimestampWritableV2}, decimals
 * {@link HiveDecimalWritable}), arrays as an {@link ArrayWritable} of elements, maps as an
 * {@link ArrayWritable} of key/value pairs, structs as an {@link ArrayWritable} of fields in the
 * Hive type's order. {@code where} names the column (and nested field) in errors.
 */
final class HiveWritables {
  private HiveWritables() {}

  static Writable toWritable(Object value, Schema schema, TypeInfo type, String where) {
    if (value == null) {
      return null;
    }
    Schema s = SchemaEvolution.nonNull(schema);
    return switch (type.getCategory()) {
      case PRIMITIVE -> primitive(value, s, (PrimitiveTypeInfo) type, where);
      case LIST -> list(value, s, (ListTypeInfo) type, where);
      case MAP -> map(value, s, (MapTypeInfo) type, where);
      case STRUCT -> struct(value, s, (StructTypeInfo) type, where);
      default -> throw new HiveInputException(where + ": Hive type " + type + " is not read from Hudi tables");
    };
  }

  /** The record's fields as a Hive struct of {@code type}'s fields, matched by name (Hive names are lower case). */
  static ArrayWritable struct(Object value, Schema schema, StructTypeInfo type, String where) {
    if (!(value instanceof GenericRecord record)) {
      throw mismatch(value, schema, type, where);
    }
    List<String> names = type.getAllStructFieldNames();
    List<TypeInfo> types = type.getAllStructFieldTypeInfos();
    Writable[] fields = new Writable[names.size()];
    for (int i = 0; i < fields.length; i++) {
      Schema.Field field = fieldIgnoringCase(schema, names.get(i));
      if (field != null) {
        fields[i] = toWritable(record.get(field.pos()), field.schema(), types.get(i), where + "." + field.name());
      }
    }
    return new ArrayWritable(Writable.class, fields);
  }

  static Schema.Field fieldIgnoringCase(Schema record, String name) {
    Schema.Field exact = record.getField(name);
    if (exact != null) {
      return exact;
    }
    for (Schema.Field f : record.getFields()) {
      if (f.name().equalsIgnoreCase(name)) {
        return f;
      }
    }
    return null;
  }

  private static ArrayWritable list(Object value, Schema schema, ListTypeInfo type, String where) {
    if (!(value instanceof java.util.Collection<?> items) || schema.getType() != Schema.Type.ARRAY) {
      throw mismatch(value, schema, type, where);
    }
    Writable[] out = new Writable[items.size()];
    int i = 0;
    for (Object item : items) {
      out[i] = toWritable(item, schema.getElementType(), type.getListElementTypeInfo(), where + "[" + i + "]");
      i++;
    }
    return new ArrayWritable(Writable.class, out);
  }

  private static ArrayWritable map(Object value, Schema schema, MapTypeInfo type, String where) {
    if (!(value instanceof Map<?, ?> entries) || schema.getType() != Schema.Type.MAP) {
      throw mismatch(value, schema, type, where);
    }
    Schema keySchema = Schema.create(Schema.Type.STRING);
    Writable[] out = new Writable[entries.size()];
    int i = 0;
    for (Map.Entry<?, ?> e : entries.entrySet()) {
      String key = String.valueOf(e.getKey());
      out[i++] = new ArrayWritable(Writable.class, new Writable[] {
          toWritable(key, keySchema, type.getMapKeyTypeInfo(), where + " key"),
          toWritable(e.getValue(), schema.getValueType(), type.getMapValueTypeInfo(), where + "[" + key + "]")});
    }
    return new ArrayWritable(Writable.class, out);
  }

  private static Writable primitive(Object value, Schema schema, PrimitiveTypeInfo type, String where) {
    LogicalType logical = schema.getLogicalType();
    return switch (type.getPrimitiveCategory()) {
      case STRING, VARCHAR, CHAR -> new Text(value.toString());
      case BOOLEAN -> new BooleanWritable(as(Boolean.class, value, schema, type, where));
      case BYTE, SHORT -> new ShortWritable(as(Number.class, value, schema, type, where).shortValue());
      case INT -> new IntWritable(as(Number.class, value, schema, type, where).intValue());
      case LONG -> new LongWritable(as(Number.class, value, schema, type, where).longValue());
      case FLOAT -> new FloatWritable(as(Number.class, value, schema, type, where).floatValue());
      case DOUBLE -> new DoubleWritable(as(Number.class, value, schema, type, where).doubleValue());
      case DATE -> new DateWritableV2(days(value, schema, type, where));
      case TIMESTAMP -> new TimestampWritableV2(timestamp(value, schema, logical, type, where));
      case DECIMAL -> new HiveDecimalWritable(HiveDecimal.create(decimal(value, schema, logical, type, where)));
      case BINARY -> new BytesWritable(bytes(value, schema, type, where));
      default -> throw new HiveInputException(where + ": Hive type " + type + " is not read from Hudi tables");
    };
  }

  private static int days(Object value, Schema schema, TypeInfo type, String where) {
    if (value instanceof LocalDate date) {
      return (int) date.toEpochDay();
    }
    return as(Number.class, value, schema, type, where).intValue();
  }

  private static Timestamp timestamp(Object value, Schema schema, LogicalType logical, TypeInfo type, String where) {
    if (value instanceof java.time.Instant instant) {
      return Timestamp.ofEpochSecond(instant.getEpochSecond(), instant.getNano());
    }
    long n = as(Number.class, value, schema, type, where).longValue();
    if (logical instanceof LogicalTypes.TimestampMillis || logical instanceof LogicalTypes.LocalTimestampMillis) {
      return Timestamp.ofEpochMilli(n);
    }
    if (logical instanceof LogicalTypes.TimestampMicros || logical instanceof LogicalTypes.LocalTimestampMicros) {
      return Timestamp.ofEpochSecond(Math.floorDiv(n, 1_000_000L), (int) Math.floorMod(n, 1_000_000L) * 1000);
    }
    throw mismatch(value, schema, type, where);
  }

  private static BigDecimal decimal(Object value, Schema schema, LogicalType logical, TypeInfo type, String where) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (!(logical instanceof LogicalTypes.Decimal dec)) {
      throw mismatch(value, schema, type, where);
    }
    byte[] unscaled = value instanceof GenericData.Fixed fixed ? fixed.bytes() : bytes(value, schema, type, where);
    return new BigDecimal(new BigInteger(unscaled), dec.getScale());
  }

  private static byte[] bytes(Object value, Schema schema, TypeInfo type, String where) {
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer b = buffer.duplicate();
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    }
    if (value instanceof GenericData.Fixed fixed) {
      return fixed.bytes();
    }
    if (value instanceof byte[] raw) {
      return raw;
    }
    throw mismatch(value, schema, type, where);
  }

  private static <T> T as(Class<T> kind, Object value, Schema schema, TypeInfo type, String where) {
    if (!kind.isInstance(value)) {
      throw mismatch(value, schema, type, where);
    }
    return kind.cast(value);
  }

  private static HiveInputException mismatch(Object value, Schema schema, TypeInfo type, String where) {
    return new HiveInputException(where + ": a value of Avro type " + schema + " (" + value.getClass().getSimpleName()
        + ") cannot be read as Hive type " + type.getTypeName());
  }
}
