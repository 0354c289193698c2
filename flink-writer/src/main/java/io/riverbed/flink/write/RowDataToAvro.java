package io.riverbed.flink.write;

import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Converts Flink {@link RowData} of one row type into Avro records of the matching schema. The
 * per-field getters and converters are built once, at operator open, not per record.
 */
public final class RowDataToAvro implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Converts one non-null field value. */
  @FunctionalInterface
  private interface ValueConverter extends Serializable {
    Object convert(Object flinkValue);
  }

  private final Schema schema;
  private final RowData.FieldGetter[] getters;
  private final ValueConverter[] converters;

  private RowDataToAvro(Schema schema, RowData.FieldGetter[] getters, ValueConverter[] converters) {
    this.schema = schema;
    this.getters = getters;
    this.converters = converters;
  }

  public static RowDataToAvro of(RowType rowType, Schema schema) {
    int n = rowType.getFieldCount();
    RowData.FieldGetter[] getters = new RowData.FieldGetter[n];
    ValueConverter[] converters = new ValueConverter[n];
    for (int i = 0; i < n; i++) {
      getters[i] = RowData.createFieldGetter(rowType.getTypeAt(i), i);
      converters[i] = converter(rowType.getTypeAt(i), nonNull(schema.getFields().get(i).schema()));
    }
    return new RowDataToAvro(schema, getters, converters);
  }

  public Schema schema() {
    return schema;
  }

  public GenericRecord convert(RowData row) {
    GenericData.Record record = new GenericData.Record(schema);
    for (int i = 0; i < getters.length; i++) {
      Object v = getters[i].getFieldOrNull(row);
      record.put(i, v == null ? null : converters[i].convert(v));
    }
    return record;
  }

  /** Converts {@code row}'s fields into {@code target}'s fields from {@code firstPosition} on, in order. */
  public void convertInto(RowData row, GenericRecord target, int firstPosition) {
    for (int i = 0; i < getters.length; i++) {
      Object v = getters[i].getFieldOrNull(row);
      target.put(firstPosition + i, v == null ? null : converters[i].convert(v));
    }
  }

  /** The Avro value of the field at {@code position} (as {@link #convert}'s record holds it); null if null. */
  public Object convertField(RowData row, int position) {
    Object v = getters[position].getFieldOrNull(row);
    return v == null ? null : converters[position].convert(v);
  }

  /**
   * A record of the full schema with only the fields at {@code positions} converted (the others
   * null): enough for key generation without converting the whole row.
   */
  public GenericRecord convertFields(RowData row, int[] positions) {
    GenericData.Record record = new GenericData.Record(schema);
    for (int i : positions) {
      Object v = getters[i].getFieldOrNull(row);
      record.put(i, v == null ? null : converters[i].convert(v));
    }
    return record;
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    return s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElse(s);
  }

  private static ValueConverter converter(LogicalType type, Schema avro) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN, INTEGER, BIGINT, FLOAT, DOUBLE, DATE, TIME_WITHOUT_TIME_ZONE -> v -> v;
      case TINYINT -> v -> ((Byte) v).intValue();
      case SMALLINT -> v -> ((Short) v).intValue();
      case CHAR, VARCHAR -> Object::toString;
      case BINARY, VARBINARY -> v -> ByteBuffer.wrap((byte[]) v);
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        boolean millis = avro.getLogicalType() instanceof LogicalTypes.TimestampMillis;
        yield v -> {
          TimestampData t = (TimestampData) v;
          return millis ? t.getMillisecond() : t.getMillisecond() * 1000L + t.getNanoOfMillisecond() / 1000;
        };
      }
      case DECIMAL -> {
        int size = avro.getFixedSize();
        yield v -> {
          BigDecimal d = ((DecimalData) v).toBigDecimal();
          return new GenericData.Fixed(avro, padded(d.unscaledValue().toByteArray(), size));
        };
      }
      case ROW -> {
        RowType rowType = (RowType) type;
        RowDataToAvro nested = of(rowType, avro);
        yield v -> nested.convert((RowData) v);
      }
      case ARRAY -> {
        LogicalType elementType = ((ArrayType) type).getElementType();
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        ValueConverter element = converter(elementType, nonNull(avro.getElementType()));
        yield v -> {
          ArrayData a = (ArrayData) v;
          List<Object> out = new ArrayList<>(a.size());
          for (int i = 0; i < a.size(); i++) {
            Object x = getter.getElementOrNull(a, i);
            out.add(x == null ? null : element.convert(x));
          }
          return out;
        };
      }
      case MAP -> {
        MapType m = (MapType) type;
        ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(m.getKeyType());
        ArrayData.ElementGetter valueGetter = ArrayData.createElementGetter(m.getValueType());
        ValueConverter value = converter(m.getValueType(), nonNull(avro.getValueType()));
        yield v -> {
          MapData map = (MapData) v;
          Map<String, Object> out = new HashMap<>();
          for (int i = 0; i < map.size(); i++) {
            Object x = valueGetter.getElementOrNull(map.valueArray(), i);
            out.put(keyGetter.getElementOrNull(map.keyArray(), i).toString(), x == null ? null : value.convert(x));
          }
          return out;
        };
      }
      default -> throw new IllegalArgumentException("unsupported type " + type);
    };
  }

  /** The unscaled value's two's-complement bytes sign-extended to the fixed {@code size}. */
  static byte[] padded(byte[] unscaled, int size) {
    if (unscaled.length == size) {
      return unscaled;
    }
    if (unscaled.length > size) {
      throw new IllegalArgumentException("a decimal of " + unscaled.length + " bytes does not fit the fixed size " + size);
    }
    byte[] out = new byte[size];
    byte pad = (byte) (unscaled[0] < 0 ? 0xFF : 0x00);
    int offset = size - unscaled.length;
    for (int i = 0; i < offset; i++) {
      out[i] = pad;
    }
    System.arraycopy(unscaled, 0, out, offset, unscaled.length);
    return out;
  }
}
