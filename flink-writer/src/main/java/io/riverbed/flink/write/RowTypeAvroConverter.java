package io.riverbed.flink.write;

import io.riverbed.format.TableException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Maps a Flink row type to the Avro schema the table stores, as Hudi's Flink writer does:
 * nullable columns become {@code ["null", T]} with default null, timestamps of precision up to 3
 * become {@code timestamp-millis} and finer ones {@code timestamp-micros}, TIME of precision up to 3
 * {@code time-millis} (finer ones are refused), decimals are fixed.
 */
public final class RowTypeAvroConverter {
  private RowTypeAvroConverter() {}

  /** The record schema named {@code <table>_record} in namespace {@code hoodie.<table>}. */
  public static Schema toAvroSchema(RowType rowType, String tableName) {
    return record(rowType, tableName + "_record", "hoodie." + tableName);
  }

  private static Schema record(RowType rowType, String name, String namespace) {
    List<Schema.Field> fields = new ArrayList<>();
    for (RowType.RowField f : rowType.getFields()) {
      Schema type = convert(f.getType(), f.getName(), namespace + "." + name);
      boolean nullable = f.getType().isNullable();
      fields.add(new Schema.Field(f.getName(), nullable ? nullable(type) : type, null,
          nullable ? JsonProperties.NULL_VALUE : null));
    }
    return Schema.createRecord(name, null, namespace, false, fields);
  }

  private static Schema nullable(Schema s) {
    return Schema.createUnion(Schema.create(Schema.Type.NULL), s);
  }

  private static Schema convert(LogicalType type, String fieldName, String namespace) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
      case TINYINT, SMALLINT, INTEGER -> Schema.create(Schema.Type.INT);
      case BIGINT -> Schema.create(Schema.Type.LONG);
      case FLOAT -> Schema.create(Schema.Type.FLOAT);
      case DOUBLE -> Schema.create(Schema.Type.DOUBLE);
      case CHAR, VARCHAR -> Schema.create(Schema.Type.STRING);
      case BINARY, VARBINARY -> Schema.create(Schema.Type.BYTES);
      case DATE -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
      case TIME_WITHOUT_TIME_ZONE -> {
        if (((TimeType) type).getPrecision() > 3) {
          throw new TableException("column '" + fieldName + "' has type " + type + ": a Hudi table stores TIME in "
              + "milliseconds (Avro time-millis), as Hudi's Flink writer does; declare it TIME(3) or less");
        }
        yield LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
      }
      case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(((TimestampType) type).getPrecision());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(((LocalZonedTimestampType) type).getPrecision());
      case DECIMAL -> {
        DecimalType d = (DecimalType) type;
        yield LogicalTypes.decimal(d.getPrecision(), d.getScale())
            .addToSchema(Schema.createFixed("fixed", null, namespace + "." + fieldName, fixedSize(d.getPrecision())));
      }
      case ROW -> record((RowType) type, fieldName, namespace);
      case ARRAY -> {
        LogicalType element = ((ArrayType) type).getElementType();
        Schema e = convert(element, fieldName, namespace);
        yield Schema.createArray(element.isNullable() ? nullable(e) : e);
      }
      case MAP -> {
        MapType m = (MapType) type;
        if (!m.getKeyType().is(org.apache.flink.table.types.logical.LogicalTypeFamily.CHARACTER_STRING)) {
          throw new TableException("column '" + fieldName + "': map keys must be strings in a Hudi table, got " + m.getKeyType());
        }
        Schema v = convert(m.getValueType(), fieldName, namespace);
        yield Schema.createMap(m.getValueType().isNullable() ? nullable(v) : v);
      }
      default -> throw new TableException("column '" + fieldName + "' has type " + type + ", which Riverbed cannot store");
    };
  }

  private static Schema timestamp(int precision) {
    Schema base = Schema.create(Schema.Type.LONG);
    return precision <= 3 ? LogicalTypes.timestampMillis().addToSchema(base) : LogicalTypes.timestampMicros().addToSchema(base);
  }

  /** Smallest byte count holding an unscaled value of {@code precision} decimal digits. */
  static int fixedSize(int precision) {
    int bytes = 1;
    while (Math.pow(2, 8 * bytes - 1) < Math.pow(10, precision)) {
      bytes++;
    }
    return bytes;
  }
}
