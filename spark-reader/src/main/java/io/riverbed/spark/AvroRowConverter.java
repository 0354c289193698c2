package io.riverbed.spark;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Converts Avro records of one schema into Spark {@link InternalRow}s holding a chosen subset of
 * the fields. The per-field converters are built once; converting a record does no schema work.
 */
public final class AvroRowConverter implements Function<GenericRecord, InternalRow> {
  private final int[] positions;
  private final Function<Object, Object>[] converters;

  @SuppressWarnings("unchecked")
  private AvroRowConverter(int[] positions, Function<Object, Object>[] converters) {
    this.positions = positions;
    this.converters = converters;
  }

  /** A converter producing rows of {@code outputFields} (names in {@code recordSchema}) in that order. */
  @SuppressWarnings("unchecked")
  public static AvroRowConverter of(Schema recordSchema, List<String> outputFields) {
    int[] positions = new int[outputFields.size()];
    Function<Object, Object>[] converters = new Function[outputFields.size()];
    for (int i = 0; i < outputFields.size(); i++) {
      Schema.Field f = recordSchema.getField(outputFields.get(i));
      if (f == null) {
        positions[i] = -1;
        converters[i] = v -> null;
      } else {
        positions[i] = f.pos();
        converters[i] = converterFor(f.schema());
      }
    }
    return new AvroRowConverter(positions, converters);
  }

  @Override
  public InternalRow apply(GenericRecord record) {
    Object[] values = new Object[positions.length];
    for (int i = 0; i < positions.length; i++) {
      if (positions[i] >= 0) {
        Object v = record.get(positions[i]);
        values[i] = v == null ? null : converters[i].apply(v);
      }
    }
    return new GenericInternalRow(values);
  }

  /**
   * A string value as Spark's UTF-8 string: Avro's {@link Utf8} by copying its bytes (no decoding
   * to a Java string and encoding back), as Spark's own Avro reader does.
   */
  static UTF8String utf8String(Object v) {
    if (v instanceof Utf8 u) {
      return UTF8String.fromBytes(Arrays.copyOf(u.getBytes(), u.getByteLength()));
    }
    return UTF8String.fromString(v.toString());
  }

  /**
   * Decimals of up to 18 digits are built from their unscaled long, read straight from the
   * two's-complement bytes (fixed or bytes); larger ones go through {@link BigDecimal}.
   */
  private static Function<Object, Object> decimalConverter(Schema s, LogicalTypes.Decimal d) {
    int precision = d.getPrecision();
    int scale = d.getScale();
    Conversions.DecimalConversion conversion = new Conversions.DecimalConversion();
    Function<Object, Object> big = v -> {
      BigDecimal dec = v instanceof BigDecimal b ? b
          : v instanceof ByteBuffer bb ? conversion.fromBytes(bb.duplicate(), s, d)
          : new BigDecimal(new BigInteger(((GenericFixed) v).bytes()), scale);
      return Decimal.apply(dec, precision, scale);
    };
    if (precision > Decimal.MAX_LONG_DIGITS()) {
      return big;
    }
    return v -> {
      if (v instanceof GenericFixed f) {
        byte[] bytes = f.bytes();
        return Decimal.apply(unscaledLong(bytes, 0, bytes.length), precision, scale);
      }
      if (v instanceof ByteBuffer bb && bb.hasArray()) {
        return Decimal.apply(unscaledLong(bb.array(), bb.arrayOffset() + bb.position(), bb.remaining()), precision, scale);
      }
      return big.apply(v);
    };
  }

  /**
   * The big-endian two's-complement integer in {@code length} bytes at {@code offset}, for
   * values that fit a long (a decimal of at most 18 digits; longer encodings only sign-extend).
   */
  static long unscaledLong(byte[] bytes, int offset, int length) {
    if (length == 0) {
      return 0;
    }
    long value = bytes[offset];
    for (int i = 1; i < length; i++) {
      value = (value << 8) | (bytes[offset + i] & 0xFF);
    }
    return value;
  }

  static Function<Object, Object> converterFor(Schema schema) {
    Schema s = AvroSchemaConverter.nonNull(schema);
    LogicalType logical = s.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal d) {
      return decimalConverter(s, d);
    }
    if (logical instanceof LogicalTypes.TimestampMillis || logical instanceof LogicalTypes.LocalTimestampMillis) {
      return v -> ((Number) v).longValue() * 1000L;
    }
    return switch (s.getType()) {
      case STRING, ENUM -> AvroRowConverter::utf8String;
      case BOOLEAN, INT, LONG, FLOAT, DOUBLE -> v -> v;
      case BYTES -> v -> {
        ByteBuffer bb = ((ByteBuffer) v).duplicate();
        byte[] bytes = new byte[bb.remaining()];
        bb.get(bytes);
        return bytes;
      };
      case FIXED -> v -> ((GenericData.Fixed) v).bytes().clone();
      case RECORD -> {
        List<Schema.Field> fields = s.getFields();
        @SuppressWarnings("unchecked")
        Function<Object, Object>[] inner = fields.stream().map(f -> converterFor(f.schema())).toArray(Function[]::new);
        yield v -> {
          IndexedRecord r = (IndexedRecord) v;
          Object[] out = new Object[inner.length];
          for (int i = 0; i < inner.length; i++) {
            Object x = r.get(i);
            out[i] = x == null ? null : inner[i].apply(x);
          }
          return new GenericInternalRow(out);
        };
      }
      case ARRAY -> {
        Function<Object, Object> element = converterFor(s.getElementType());
        yield v -> {
          Collection<?> items = (Collection<?>) v;
          Object[] out = new Object[items.size()];
          int i = 0;
          for (Object x : items) {
            out[i++] = x == null ? null : element.apply(x);
          }
          return new GenericArrayData(out);
        };
      }
      case MAP -> {
        Function<Object, Object> value = converterFor(s.getValueType());
        yield v -> {
          Map<?, ?> m = (Map<?, ?>) v;
          List<Object> keys = new ArrayList<>(m.size());
          List<Object> values = new ArrayList<>(m.size());
          m.forEach((k, x) -> {
            keys.add(UTF8String.fromString(k.toString()));
            values.add(x == null ? null : value.apply(x));
          });
          return new ArrayBasedMapData(new GenericArrayData(keys.toArray()), new GenericArrayData(values.toArray()));
        };
      }
      case NULL -> v -> null;
      case UNION -> throw new IllegalStateException("nullable unions are unwrapped above: " + s);
    };
  }
}
