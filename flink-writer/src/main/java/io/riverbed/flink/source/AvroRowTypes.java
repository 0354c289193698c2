package io.riverbed.flink.source;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Avro schema to Flink row type, the reverse of {@code RowTypeAvroConverter} and the mapping
 * Hudi's Flink {@code AvroSchemaConverter} uses: {@code ["null", T]} unions are nullable T and
 * other fields NOT NULL; int/long/float/double/boolean/string as themselves; enum as STRING;
 * bytes as BYTES and fixed as BINARY(size) unless they carry a decimal; {@code date},
 * {@code time-millis} (TIME(3)), {@code time-micros} (TIME(6)), {@code timestamp-millis}
 * (TIMESTAMP(3)), {@code timestamp-micros} (TIMESTAMP(6)), {@code local-timestamp-*}
 * (TIMESTAMP_LTZ); records as ROW, arrays as ARRAY, maps as MAP&lt;STRING, V&gt;.
 */
public final class AvroRowTypes {
  private AvroRowTypes() {}

  /** Reads an {@code .avsc} file; the top-level schema must be a record. */
  public static Schema readSchema(File avsc) {
    try {
      Schema schema = new Schema.Parser().parse(avsc);
      if (schema.getType() != Schema.Type.RECORD) {
        throw new IllegalArgumentException("schema file " + avsc + " must hold an Avro record, it holds a " + schema.getType());
      }
      return schema;
    } catch (IOException | SchemaParseException e) {
      throw new IllegalArgumentException("cannot read Avro schema file " + avsc + ": " + e.getMessage(), e);
    }
  }

  public static RowType toRowType(Schema record) {
    if (record.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException("expected an Avro record schema, got " + record.getType());
    }
    return (RowType) convert(record, "", false);
  }

  private static org.apache.flink.table.types.logical.LogicalType convert(Schema schema, String path, boolean nullable) {
    LogicalType logical = schema.getLogicalType();
    return switch (schema.getType()) {
      case UNION -> {
        List<Schema> nonNull = new ArrayList<>();
        boolean hasNull = false;
        for (Schema s : schema.getTypes()) {
          if (s.getType() == Schema.Type.NULL) {
            hasNull = true;
          } else {
            nonNull.add(s);
          }
        }
        if (nonNull.size() != 1) {
          throw new IllegalArgumentException("field '" + path + "': union " + schema
              + " is not supported; only [\"null\", T] unions map to a column");
        }
        yield convert(nonNull.get(0), path, nullable || hasNull);
      }
      case RECORD -> {
        List<RowType.RowField> fields = new ArrayList<>();
        for (Schema.Field f : schema.getFields()) {
          String fieldPath = path.isEmpty() ? f.name() : path + "." + f.name();
          fields.add(new RowType.RowField(f.name(), convert(f.schema(), fieldPath, false), f.doc()));
        }
        yield new RowType(nullable, fields);
      }
      case ARRAY -> new ArrayType(nullable, convert(schema.getElementType(), path + "[]", false));
      case MAP -> new MapType(nullable, new VarCharType(false, VarCharType.MAX_LENGTH),
          convert(schema.getValueType(), path + "{}", false));
      case ENUM, STRING -> new VarCharType(nullable, VarCharType.MAX_LENGTH);
      case BOOLEAN -> new BooleanType(nullable);
      case INT -> {
        if (logical instanceof LogicalTypes.Date) {
          yield new DateType(nullable);
        }
        if (logical instanceof LogicalTypes.TimeMillis) {
          yield new TimeType(nullable, 3);
        }
        yield new IntType(nullable);
      }
      case LONG -> {
        if (logical instanceof LogicalTypes.TimestampMillis) {
          yield new TimestampType(nullable, 3);
        }
        if (logical instanceof LogicalTypes.TimestampMicros) {
          yield new TimestampType(nullable, 6);
        }
        if (logical instanceof LogicalTypes.LocalTimestampMillis) {
          yield new LocalZonedTimestampType(nullable, 3);
        }
        if (logical instanceof LogicalTypes.LocalTimestampMicros) {
          yield new LocalZonedTimestampType(nullable, 6);
        }
        if (logical instanceof LogicalTypes.TimeMicros) {
          yield new TimeType(nullable, 6);
        }
        yield new BigIntType(nullable);
      }
      case FLOAT -> new FloatType(nullable);
      case DOUBLE -> new DoubleType(nullable);
      case BYTES -> logical instanceof LogicalTypes.Decimal d
          ? new DecimalType(nullable, d.getPrecision(), d.getScale())
          : new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
      case FIXED -> logical instanceof LogicalTypes.Decimal d
          ? new DecimalType(nullable, d.getPrecision(), d.getScale())
          : new BinaryType(nullable, schema.getFixedSize());
      case NULL -> throw new IllegalArgumentException("field '" + path + "' has type null, which no column can hold");
    };
  }
}
