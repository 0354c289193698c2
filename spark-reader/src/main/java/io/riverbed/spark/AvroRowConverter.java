package io.riverbed.spark;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
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

  static Function<Object, Object> converterFor(Schema schema) {
    Schema s = AvroSchemaConverter.nonNull(schema);
    LogicalType logical = s.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal d) {
      Conversions.DecimalConversion conversion = new Conversions.DecimalConversion();
      return v -> {
        BigDecimal dec = v instanceof BigDecimal b ? b
            : v instanceof ByteBuffer bb ? conversion.fromBytes(bb.duplicate(), s, d)
            : new BigDecimal(new BigInteger(((GenericData.Fixed) v).bytes()), d.getScale());
        return Decimal.apply(dec, d.getPrecision(), d.getScale());
      };
    }
    if (logical instanceof LogicalTypes.TimestampMillis || logical instanceof LogicalTypes.LocalTimestampMillis) {
      return v -> ((Number) v).longValue() * 1000L;
    }
    return switch (s.getType()) {
      case STRING, ENUM -> v -> UTF8String.fromString(v.toString());
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
