package io.riverbed.flink.write;

import io.riverbed.format.InvalidRecordException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Encodes Flink {@link RowData} of one row type as the Avro binary of the table's record schema,
 * straight from the row: the bytes Avro's {@code GenericDatumWriter} writes for the record
 * {@link RowDataToAvro} would build, without building it (no {@code GenericRecord}, no Java
 * {@code String} per string field: UTF-8 bytes are copied as they are). Log blocks take the bytes as
 * they are ({@link io.riverbed.format.record.AvroBinaryRecord}).
 *
 * <p>Built once per task ({@link #of}); it covers the schemas {@link RowTypeAvroConverter} makes and
 * user schemas of the same shapes (a nullable field is a union of null and one type, in either order).
 * Not thread-safe: it reuses one buffer.
 */
public final class RowDataAvroEncoder {

  /** Writes one field of a row. */
  @FunctionalInterface
  private interface FieldWriter {
    void write(RowData row, Encoder out) throws IOException;
  }

  /** Writes one non-null value as a {@link RowData.FieldGetter} or element getter returns it. */
  @FunctionalInterface
  private interface ValueWriter {
    void write(Object value, Encoder out) throws IOException;
  }

  /** Thrown while building when a field's types have no direct encoding here. */
  private static final class UnsupportedShape extends Exception {
    private static final long serialVersionUID = 1L;

    UnsupportedShape(String message) {
      super(message, null, false, false);
    }
  }

  private final Schema schema;
  private final FieldWriter[] fields;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
  private BinaryEncoder encoder;

  private RowDataAvroEncoder(Schema schema, FieldWriter[] fields) {
    this.schema = schema;
    this.fields = fields;
  }

  /**
   * An encoder of {@code rowType} rows into {@code schema} (a record schema with the row's fields in
   * order); empty if some field has a shape this encoder does not cover, in which case the caller
   * converts rows with {@link RowDataToAvro}.
   */
  public static Optional<RowDataAvroEncoder> of(RowType rowType, Schema schema) {
    try {
      return Optional.of(new RowDataAvroEncoder(schema, recordFields(rowType, schema)));
    } catch (UnsupportedShape e) {
      return Optional.empty();
    }
  }

  public Schema schema() {
    return schema;
  }

  /** The Avro binary encoding of {@code row} in {@link #schema()}, a new array. */
  public byte[] encode(RowData row) {
    buffer.reset();
    encoder = EncoderFactory.get().directBinaryEncoder(buffer, encoder);
    try {
      writeFields(fields, row, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      throw new InvalidRecordException("cannot encode a row as a record of schema " + schema.getFullName() + ": "
          + e.getMessage(), e);
    }
    return buffer.toByteArray();
  }

  private static void writeFields(FieldWriter[] fields, RowData row, Encoder out) throws IOException {
    for (FieldWriter field : fields) {
      field.write(row, out);
    }
  }

  private static FieldWriter[] recordFields(RowType rowType, Schema schema) throws UnsupportedShape {
    if (schema.getType() != Schema.Type.RECORD || schema.getFields().size() != rowType.getFieldCount()) {
      throw new UnsupportedShape("not a record of " + rowType.getFieldCount() + " fields: " + schema);
    }
    FieldWriter[] out = new FieldWriter[rowType.getFieldCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = field(rowType.getTypeAt(i), schema.getFields().get(i), i);
    }
    return out;
  }

  private static FieldWriter field(LogicalType type, Schema.Field avroField, int pos) throws UnsupportedShape {
    Schema avro = avroField.schema();
    if (avro.getType() == Schema.Type.UNION) {
      int nullBranch = nullBranch(avro);
      int valueBranch = 1 - nullBranch;
      FieldWriter value = nonNullField(type, avro.getTypes().get(valueBranch), pos);
      return (row, out) -> {
        if (row.isNullAt(pos)) {
          out.writeIndex(nullBranch);
        } else {
          out.writeIndex(valueBranch);
          value.write(row, out);
        }
      };
    }
    FieldWriter value = nonNullField(type, avro, pos);
    String name = avroField.name();
    return (row, out) -> {
      if (row.isNullAt(pos)) {
        throw new InvalidRecordException("field '" + name + "' is null but its schema " + avro + " does not allow null");
      }
      value.write(row, out);
    };
  }

  /** The direct writers of the common scalar types, reading the row without boxing; others go through a getter. */
  private static FieldWriter nonNullField(LogicalType type, Schema avro, int pos) throws UnsupportedShape {
    switch (type.getTypeRoot()) {
      case BOOLEAN -> {
        require(avro, Schema.Type.BOOLEAN, type);
        return (row, out) -> out.writeBoolean(row.getBoolean(pos));
      }
      case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> {
        require(avro, Schema.Type.INT, type);
        return (row, out) -> out.writeInt(row.getInt(pos));
      }
      case BIGINT -> {
        require(avro, Schema.Type.LONG, type);
        return (row, out) -> out.writeLong(row.getLong(pos));
      }
      case DOUBLE -> {
        require(avro, Schema.Type.DOUBLE, type);
        return (row, out) -> out.writeDouble(row.getDouble(pos));
      }
      case CHAR, VARCHAR -> {
        require(avro, Schema.Type.STRING, type);
        return (row, out) -> out.writeBytes(row.getString(pos).toBytes());
      }
      default -> {
        RowData.FieldGetter getter = RowData.createFieldGetter(type, pos);
        ValueWriter value = nonNullValue(type, avro);
        return (row, out) -> value.write(getter.getFieldOrNull(row), out);
      }
    }
  }

  private static ValueWriter value(LogicalType type, Schema avro) throws UnsupportedShape {
    if (avro.getType() != Schema.Type.UNION) {
      ValueWriter value = nonNullValue(type, avro);
      return (v, out) -> {
        if (v == null) {
          throw new InvalidRecordException("a null element where schema " + avro + " does not allow null");
        }
        value.write(v, out);
      };
    }
    int nullBranch = nullBranch(avro);
    int valueBranch = 1 - nullBranch;
    ValueWriter value = nonNullValue(type, avro.getTypes().get(valueBranch));
    return (v, out) -> {
      if (v == null) {
        out.writeIndex(nullBranch);
      } else {
        out.writeIndex(valueBranch);
        value.write(v, out);
      }
    };
  }

  /** Value writers that mirror {@link RowDataToAvro}'s conversions followed by {@code GenericDatumWriter}. */
  private static ValueWriter nonNullValue(LogicalType type, Schema avro) throws UnsupportedShape {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> {
        require(avro, Schema.Type.BOOLEAN, type);
        yield (v, out) -> out.writeBoolean((Boolean) v);
      }
      case TINYINT -> {
        require(avro, Schema.Type.INT, type);
        yield (v, out) -> out.writeInt((Byte) v);
      }
      case SMALLINT -> {
        require(avro, Schema.Type.INT, type);
        yield (v, out) -> out.writeInt((Short) v);
      }
      case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> {
        require(avro, Schema.Type.INT, type);
        yield (v, out) -> out.writeInt((Integer) v);
      }
      case BIGINT -> {
        require(avro, Schema.Type.LONG, type);
        yield (v, out) -> out.writeLong((Long) v);
      }
      case FLOAT -> {
        require(avro, Schema.Type.FLOAT, type);
        yield (v, out) -> out.writeFloat((Float) v);
      }
      case DOUBLE -> {
        require(avro, Schema.Type.DOUBLE, type);
        yield (v, out) -> out.writeDouble((Double) v);
      }
      case CHAR, VARCHAR -> {
        require(avro, Schema.Type.STRING, type);
        yield (v, out) -> out.writeBytes(((StringData) v).toBytes());
      }
      case BINARY, VARBINARY -> {
        require(avro, Schema.Type.BYTES, type);
        yield (v, out) -> out.writeBytes((byte[]) v);
      }
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        require(avro, Schema.Type.LONG, type);
        boolean millis = avro.getLogicalType() instanceof LogicalTypes.TimestampMillis;
        yield (v, out) -> {
          TimestampData t = (TimestampData) v;
          out.writeLong(millis ? t.getMillisecond() : t.getMillisecond() * 1000L + t.getNanoOfMillisecond() / 1000);
        };
      }
      case DECIMAL -> {
        require(avro, Schema.Type.FIXED, type);
        int size = avro.getFixedSize();
        yield (v, out) -> {
          BigDecimal d = ((DecimalData) v).toBigDecimal();
          out.writeFixed(RowDataToAvro.padded(d.unscaledValue().toByteArray(), size));
        };
      }
      case ROW -> {
        FieldWriter[] nested = recordFields((RowType) type, avro);
        int arity = ((RowType) type).getFieldCount();
        yield (v, out) -> {
          RowData row = (RowData) v;
          if (row.getArity() != arity) {
            throw new InvalidRecordException("a nested row of " + row.getArity() + " fields for record " + avro.getFullName()
                + " of " + arity);
          }
          writeFields(nested, row, out);
        };
      }
      case ARRAY -> {
        require(avro, Schema.Type.ARRAY, type);
        LogicalType elementType = ((ArrayType) type).getElementType();
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        ValueWriter element = value(elementType, avro.getElementType());
        yield (v, out) -> {
          ArrayData array = (ArrayData) v;
          int size = array.size();
          out.writeArrayStart();
          out.setItemCount(size);
          for (int i = 0; i < size; i++) {
            out.startItem();
            element.write(getter.getElementOrNull(array, i), out);
          }
          out.writeArrayEnd();
        };
      }
      case MAP -> {
        require(avro, Schema.Type.MAP, type);
        MapType mapType = (MapType) type;
        ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(mapType.getKeyType());
        ArrayData.ElementGetter valueGetter = ArrayData.createElementGetter(mapType.getValueType());
        ValueWriter value = value(mapType.getValueType(), avro.getValueType());
        yield (v, out) -> writeMap((MapData) v, keyGetter, valueGetter, value, out);
      }
      default -> throw new UnsupportedShape("no direct encoding of " + type);
    };
  }

  /**
   * A map as {@link RowDataToAvro} converts it (into a {@link HashMap} of the keys as strings, a
   * later duplicate key replacing the earlier value) and {@code GenericDatumWriter} writes it: in that
   * hash map's iteration order, so the bytes are the same.
   */
  private static void writeMap(MapData map, ArrayData.ElementGetter keyGetter, ArrayData.ElementGetter valueGetter,
      ValueWriter value, Encoder out) throws IOException {
    ArrayData keys = map.keyArray();
    ArrayData values = map.valueArray();
    Map<String, Integer> positions = new HashMap<>();
    for (int i = 0; i < map.size(); i++) {
      positions.put(keyGetter.getElementOrNull(keys, i).toString(), i);
    }
    out.writeMapStart();
    out.setItemCount(positions.size());
    for (Map.Entry<String, Integer> entry : positions.entrySet()) {
      out.startItem();
      out.writeString(entry.getKey());
      value.write(valueGetter.getElementOrNull(values, entry.getValue()), out);
    }
    out.writeMapEnd();
  }

  private static int nullBranch(Schema union) throws UnsupportedShape {
    var types = union.getTypes();
    if (types.size() == 2 && types.get(0).getType() == Schema.Type.NULL && types.get(1).getType() != Schema.Type.NULL) {
      return 0;
    }
    if (types.size() == 2 && types.get(1).getType() == Schema.Type.NULL && types.get(0).getType() != Schema.Type.NULL) {
      return 1;
    }
    throw new UnsupportedShape("a union other than null and one type: " + union);
  }

  private static void require(Schema avro, Schema.Type expected, LogicalType type) throws UnsupportedShape {
    if (avro.getType() != expected) {
      throw new UnsupportedShape(type + " stored as " + avro + ", not " + expected);
    }
    if (type instanceof DecimalType decimal && !(avro.getLogicalType() instanceof LogicalTypes.Decimal d
        && d.getScale() == decimal.getScale())) {
      throw new UnsupportedShape(type + " stored as " + avro);
    }
    if ((type instanceof TimestampType || type instanceof LocalZonedTimestampType)
        && !(avro.getLogicalType() instanceof LogicalTypes.TimestampMillis
            || avro.getLogicalType() instanceof LogicalTypes.TimestampMicros)) {
      throw new UnsupportedShape(type + " stored as " + avro);
    }
  }
}
