package io.riverbed.flink.read;

import io.riverbed.format.TableException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Converts Avro records of a table into Flink {@link RowData} of a row type whose fields are
 * looked up by name: the reverse of the writer's {@code RowDataToAvro} for every type the writer
 * stores, and the Avro shapes Apache Hudi's Spark writer stores (timestamps in millis or micros by
 * their logical type, decimals as fixed or bytes). A column the record's schema lacks reads as
 * null. The converters are built per Avro schema, not per record.
 */
public final class AvroToRowData implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Converts one non-null Avro value. */
  @FunctionalInterface
  private interface ValueConverter extends Serializable {
    Object convert(Object avroValue);
  }

  private final int[] positions;
  private final ValueConverter[] converters;

  private AvroToRowData(int[] positions, ValueConverter[] converters) {
    this.positions = positions;
    this.converters = converters;
  }

  /** The converter from records of {@code schema} to rows of {@code rowType}. */
  public static AvroToRowData of(RowType rowType, Schema schema) {
    int n = rowType.getFieldCount();
    int[] positions = new int[n];
    ValueConverter[] converters = new ValueConverter[n];
    for (int i = 0; i < n; i++) {
      String name = rowType.getFieldNames().get(i);
      Schema.Field field = schema.getField(name);
      positions[i] = field == null ? -1 : field.pos();
      converters[i] = field == null ? null : converter(rowType.getTypeAt(i), nonNull(field.schema()), name);
    }
    return new AvroToRowData(positions, converters);
  }

  public RowData convert(GenericRecord record) {
    GenericRowData row = new GenericRowData(positions.length);
    for (int i = 0; i < positions.length; i++) {
      if (positions[i] >= 0) {
        Object v = record.get(positions[i]);
        row.setField(i, v == null ? null : converters[i].convert(v));
      }
    }
    return row;
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    return s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElse(s);
  }

  private static ValueConverter converter(org.apache.flink.table.types.logical.LogicalType type, Schema avro, String column) {
    LogicalTypeRoot root = type.getTypeRoot();
    return switch (root) {
      case BOOLEAN, FLOAT, DOUBLE -> v -> v;
      case TINYINT -> v -> ((Number) v).byteValue();
      case SMALLINT -> v -> ((Number) v).shortValue();
      case INTEGER, DATE -> v -> ((Number) v).intValue();
      case BIGINT -> v -> ((Number) v).longValue();
      case TIME_WITHOUT_TIME_ZONE -> avro.getLogicalType() instanceof LogicalTypes.TimeMicros
          ? v -> (int) (((Number) v).longValue() / 1000) : v -> ((Number) v).intValue();
      case CHAR, VARCHAR -> v -> StringData.fromString(v.toString());
      case BINARY, VARBINARY -> v -> bytes(v);
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(avro, column);
      case DECIMAL -> {
        DecimalType d = (DecimalType) type;
        int scale = avro.getLogicalType() instanceof LogicalTypes.Decimal ad ? ad.getScale() : d.getScale();
        yield v -> DecimalData.fromBigDecimal(new BigDecimal(new BigInteger(bytes(v)), scale), d.getPrecision(), d.getScale());
      }
      case ROW -> {
        AvroToRowData nested = of((RowType) type, avro);
        yield v -> nested.convert((GenericRecord) v);
      }
      case ARRAY -> {
        ValueConverter element = converter(((ArrayType) type).getElementType(), nonNull(avro.getElementType()), column);
        yield v -> {
          List<?> list = (List<?>) v;
          Object[] out = new Object[list.size()];
          for (int i = 0; i < out.length; i++) {
            Object x = list.get(i);
            out[i] = x == null ? null : element.convert(x);
          }
          return new GenericArrayData(out);
        };
      }
      case MAP -> {
        ValueConverter value = converter(((MapType) type).getValueType(), nonNull(avro.getValueType()), column);
        yield v -> {
          Map<StringData, Object> out = new HashMap<>();
          ((Map<?, ?>) v).forEach((k, x) -> out.put(StringData.fromString(k.toString()), x == null ? null : value.convert(x)));
          return new GenericMapData(out);
        };
      }
      default -> throw new TableException("column '" + column + "' has type " + type + ", which Riverbed cannot read");
    };
  }

  private static ValueConverter timestamp(Schema avro, String column) {
    LogicalType logical = avro.getLogicalType();
    if (logical instanceof LogicalTypes.TimestampMillis || logical instanceof LogicalTypes.LocalTimestampMillis) {
      return v -> TimestampData.fromEpochMillis(((Number) v).longValue());
    }
    if (logical instanceof LogicalTypes.TimestampMicros || logical instanceof LogicalTypes.LocalTimestampMicros) {
      return v -> {
        long micros = ((Number) v).longValue();
        return TimestampData.fromEpochMillis(Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
      };
    }
    throw new TableException("column '" + column + "' is a TIMESTAMP, but the table stores it as " + avro
        + " (expected a long with logical type timestamp-millis or timestamp-micros)");
  }

  private static byte[] bytes(Object v) {
    if (v instanceof ByteBuffer b) {
      ByteBuffer copy = b.duplicate();
      byte[] out = new byte[copy.remaining()];
      copy.get(out);
      return out;
    }
    if (v instanceof GenericFixed f) {
      return f.bytes().clone();
    }
    return (byte[]) v;
  }
}
