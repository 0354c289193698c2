package io.riverbed.spark;

import java.util.List;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The top-level columns of a base file written before the table's column was widened (an int
 * column now read as bigint, a float as double, ...). Spark 3.5's vectorized Parquet reader
 * refuses such a column, so the file is read in its own types ({@link #fileSchema}) and each
 * batch's widened columns are promoted as they are read ({@link #promote}).
 */
final class WidenedColumns {
  private final StructType fileSchema;
  private final DataType[] readTypes;

  private WidenedColumns(StructType fileSchema, DataType[] readTypes) {
    this.fileSchema = fileSchema;
    this.readTypes = readTypes;
  }

  /** The widened columns of {@code file} under {@code readSchema}; null when there are none. */
  static WidenedColumns of(StructType readSchema, MessageType file, boolean caseSensitive) {
    StructField[] fields = readSchema.fields();
    StructField[] inFile = fields.clone();
    DataType[] readTypes = new DataType[fields.length];
    boolean any = false;
    for (int i = 0; i < fields.length; i++) {
      DataType written = writtenType(file, fields[i].name(), caseSensitive);
      if (written != null && promotes(written, fields[i].dataType())) {
        inFile[i] = new StructField(fields[i].name(), written, fields[i].nullable(), fields[i].metadata());
        readTypes[i] = fields[i].dataType();
        any = true;
      }
    }
    return any ? new WidenedColumns(new StructType(inFile), readTypes) : null;
  }

  /** The read schema with each widened column in the type the file holds. */
  StructType fileSchema() {
    return fileSchema;
  }

  /** {@code batch} (read in {@link #fileSchema}) with its widened columns in the read schema's types. */
  ColumnarBatch promote(ColumnarBatch batch) {
    ColumnVector[] columns = new ColumnVector[batch.numCols()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = readTypes[i] == null ? batch.column(i) : new Widened(batch.column(i), readTypes[i]);
    }
    return new ColumnarBatch(columns, batch.numRows());
  }

  /** The plain Spark type of a top-level primitive column of the file, or null. */
  private static DataType writtenType(MessageType file, String name, boolean caseSensitive) {
    List<Type> fields = file.getFields();
    for (Type t : fields) {
      boolean match = caseSensitive ? t.getName().equals(name) : t.getName().equalsIgnoreCase(name);
      if (!match || !t.isPrimitive()) {
        continue;
      }
      PrimitiveType p = t.asPrimitiveType();
      LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
      boolean plain = logical == null
          || (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned());
      if (!plain) {
        return null;
      }
      return switch (p.getPrimitiveTypeName()) {
        case INT32 -> DataTypes.IntegerType;
        case INT64 -> DataTypes.LongType;
        case FLOAT -> DataTypes.FloatType;
        default -> null;
      };
    }
    return null;
  }

  private static boolean promotes(DataType written, DataType read) {
    if (written.equals(DataTypes.IntegerType)) {
      return read.equals(DataTypes.LongType) || read.equals(DataTypes.FloatType) || read.equals(DataTypes.DoubleType);
    }
    if (written.equals(DataTypes.LongType)) {
      return read.equals(DataTypes.FloatType) || read.equals(DataTypes.DoubleType);
    }
    return written.equals(DataTypes.FloatType) && read.equals(DataTypes.DoubleType);
  }

  /** A column of the file's type read as the wider type. */
  private static final class Widened extends ColumnVector {
    private final ColumnVector written;
    private final boolean fromInt;
    private final boolean fromLong;

    Widened(ColumnVector written, DataType type) {
      super(type);
      this.written = written;
      this.fromInt = written.dataType().equals(DataTypes.IntegerType);
      this.fromLong = written.dataType().equals(DataTypes.LongType);
    }

    @Override
    public void close() {
      // the reader owns the written vector
    }

    @Override
    public boolean hasNull() {
      return written.hasNull();
    }

    @Override
    public int numNulls() {
      return written.numNulls();
    }

    @Override
    public boolean isNullAt(int rowId) {
      return written.isNullAt(rowId);
    }

    @Override
    public long getLong(int rowId) {
      return written.getInt(rowId);
    }

    @Override
    public float getFloat(int rowId) {
      return fromInt ? written.getInt(rowId) : written.getLong(rowId);
    }

    @Override
    public double getDouble(int rowId) {
      if (fromInt) {
        return written.getInt(rowId);
      }
      return fromLong ? written.getLong(rowId) : written.getFloat(rowId);
    }

    @Override
    public boolean getBoolean(int rowId) {
      throw notOfType("boolean");
    }

    @Override
    public byte getByte(int rowId) {
      throw notOfType("byte");
    }

    @Override
    public short getShort(int rowId) {
      throw notOfType("short");
    }

    @Override
    public int getInt(int rowId) {
      throw notOfType("int");
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      throw notOfType("array");
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
      throw notOfType("map");
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
      throw notOfType("decimal");
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
      throw notOfType("string");
    }

    @Override
    public byte[] getBinary(int rowId) {
      throw notOfType("binary");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      throw notOfType("struct");
    }

    private UnsupportedOperationException notOfType(String asked) {
      return new UnsupportedOperationException("a " + dataType().simpleString() + " column widened from "
          + written.dataType().simpleString() + " is not read as " + asked);
    }
  }
}
