package io.riverbed.spark;

import io.riverbed.format.TableException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Maps a table's Avro schema to the Spark schema its rows are read as, the way Spark's Avro support does. */
public final class AvroSchemaConverter {
  private AvroSchemaConverter() {}

  public static StructType toStructType(Schema record) {
    if (record.getType() != Schema.Type.RECORD) {
      throw new TableException("table schema must be an Avro record, got " + record.getType());
    }
    List<StructField> fields = new ArrayList<>();
    for (Schema.Field f : record.getFields()) {
      fields.add(new StructField(f.name(), toDataType(f.schema()), isNullable(f.schema()), Metadata.empty()));
    }
    return new StructType(fields.toArray(StructField[]::new));
  }

  static boolean isNullable(Schema s) {
    return s.getType() == Schema.Type.NULL
        || (s.getType() == Schema.Type.UNION && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL));
  }

  /** The non-null branch of a nullable union; the schema itself otherwise. */
  static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    List<Schema> branches = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
    if (branches.size() != 1) {
      throw new TableException("union " + s + " has more than one non-null branch; Spark cannot read it");
    }
    return branches.get(0);
  }

  public static DataType toDataType(Schema schema) {
    Schema s = nonNull(schema);
    LogicalType logical = s.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal d) {
      return DataTypes.createDecimalType(d.getPrecision(), d.getScale());
    }
    if (logical instanceof LogicalTypes.Date) {
      return DataTypes.DateType;
    }
    if (logical instanceof LogicalTypes.TimestampMicros || logical instanceof LogicalTypes.TimestampMillis) {
      return DataTypes.TimestampType;
    }
    if (logical instanceof LogicalTypes.LocalTimestampMicros || logical instanceof LogicalTypes.LocalTimestampMillis) {
      return DataTypes.TimestampNTZType;
    }
    return switch (s.getType()) {
      case STRING, ENUM -> DataTypes.StringType;
      case BOOLEAN -> DataTypes.BooleanType;
      case INT -> DataTypes.IntegerType;
      case LONG -> DataTypes.LongType;
      case FLOAT -> DataTypes.FloatType;
      case DOUBLE -> DataTypes.DoubleType;
      case BYTES, FIXED -> DataTypes.BinaryType;
      case RECORD -> toStructType(s);
      case ARRAY -> DataTypes.createArrayType(toDataType(s.getElementType()), isNullable(s.getElementType()));
      case MAP -> DataTypes.createMapType(DataTypes.StringType, toDataType(s.getValueType()), isNullable(s.getValueType()));
      case NULL -> DataTypes.NullType;
      case UNION -> throw new TableException("unsupported union " + s);
    };
  }
}
