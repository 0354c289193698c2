package io.riverbed.spark.write;

import io.riverbed.format.InvalidTableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * The Avro schema a DataFrame's rows are written in, as Hudi's Spark writer derives it
 * ({@code AvroConversionUtils.convertStructTypeToAvroSchema}): nullable columns as
 * {@code ["null", T]} with default null, nested structs as records in the parent's namespace,
 * decimals as fixed of the fewest bytes for their precision, timestamps as micros, dates as days,
 * byte and short as int.
 */
public final class SparkAvroSchema {
  private static final Map<DataType, Schema.Type> PRIMITIVES = Map.of(
      DataTypes.StringType, Schema.Type.STRING,
      DataTypes.IntegerType, Schema.Type.INT,
      DataTypes.ShortType, Schema.Type.INT,
      DataTypes.ByteType, Schema.Type.INT,
      DataTypes.LongType, Schema.Type.LONG,
      DataTypes.BooleanType, Schema.Type.BOOLEAN,
      DataTypes.FloatType, Schema.Type.FLOAT,
      DataTypes.DoubleType, Schema.Type.DOUBLE,
      DataTypes.BinaryType, Schema.Type.BYTES);

  private SparkAvroSchema() {}

  /** @throws InvalidTableException naming the column whose type has no Avro form */
  public static Schema toAvro(StructType struct, String recordName, String namespace) {
    Schema record = Schema.createRecord(recordName, null, namespace, false);
    String childNamespace = namespace == null || namespace.isEmpty() ? recordName : namespace + "." + recordName;
    List<Schema.Field> fields = new ArrayList<>();
    for (StructField f : struct.fields()) {
      Schema type = typeOf(f.dataType(), f.name(), childNamespace);
      if (f.nullable()) {
        fields.add(new Schema.Field(f.name(), nullable(type), null, JsonProperties.NULL_VALUE));
      } else {
        fields.add(new Schema.Field(f.name(), type));
      }
    }
    record.setFields(fields);
    return record;
  }

  private static Schema nullable(Schema type) {
    return Schema.createUnion(Schema.create(Schema.Type.NULL), type);
  }

  private static Schema typeOf(DataType type, String name, String namespace) {
    Schema.Type primitive = PRIMITIVES.get(type);
    if (primitive != null) {
      return Schema.create(primitive);
    }
    if (type instanceof DateType) {
      return LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
    }
    if (type instanceof TimestampType) {
      return LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
    }
    if (type instanceof TimestampNTZType) {
      return LogicalTypes.localTimestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
    }
    if (type instanceof DecimalType d) {
      Schema fixed = Schema.createFixed("fixed", null, namespace + "." + name, minBytesForPrecision(d.precision()));
      return LogicalTypes.decimal(d.precision(), d.scale()).addToSchema(fixed);
    }
    if (type instanceof StructType s) {
      return toAvro(s, name, namespace);
    }
    if (type instanceof ArrayType a) {
      Schema element = typeOf(a.elementType(), name, namespace);
      return Schema.createArray(a.containsNull() ? nullable(element) : element);
    }
    if (type instanceof MapType m) {
      if (!(m.keyType() instanceof StringType)) {
        throw new InvalidTableException("column '" + name + "' is a map with " + m.keyType().simpleString()
            + " keys; Hudi tables hold maps with string keys only");
      }
      Schema value = typeOf(m.valueType(), name, namespace);
      return Schema.createMap(m.valueContainsNull() ? nullable(value) : value);
    }
    throw new InvalidTableException("column '" + name + "' has type " + type.simpleString()
        + ", which a Hudi table cannot hold");
  }

  /** Fewest bytes of a two's complement number with {@code precision} decimal digits (Spark's rule). */
  static int minBytesForPrecision(int precision) {
    int bytes = 1;
    while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
      bytes++;
    }
    return bytes;
  }
}
