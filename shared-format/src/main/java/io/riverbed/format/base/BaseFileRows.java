package io.riverbed.format.base;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.TableException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.util.Utf8;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * A base file's rows as their Parquet column values, for a rewrite (a COPY_ON_WRITE merge) that
 * writes most of them back unchanged: a copied row goes to the new file's column writers as the
 * values it was read with ({@link BaseFileWriter#copy}), without an Avro record in between, and the
 * new file holds exactly the bytes the Avro path (read into the writer schema, written back through
 * parquet-avro) would give it.
 *
 * <p>Only files whose columns are those of the new file ({@linkplain #open same names, order,
 * types and annotations}), all of them top-level primitives, qualify; {@link #open} is empty for the
 * others (nested columns, schema evolution), which a caller reads as Avro records. Not thread-safe;
 * close it.
 */
public final class BaseFileRows implements Closeable {
  private static final GroupConverter NO_CONVERTER = new GroupConverter() {
    private final PrimitiveConverter column = new PrimitiveConverter() {};

    @Override
    public Converter getConverter(int fieldIndex) {
      return column;
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  };

  private final ParquetFileReader reader;
  private final Path path;
  private final MessageType schema;
  private final Schema avroSchema;
  private final String createdBy;
  private final ColumnDescriptor[] columns;
  private final PrimitiveType.PrimitiveTypeName[] types;
  private final String[] names;
  private final int[] maxDefinition;
  private final ColumnReader[] readers;
  private final boolean[] present;
  private final long[] longs;
  private final int[] ints;
  private final float[] floats;
  private final double[] doubles;
  private final boolean[] booleans;
  private final Binary[] binaries;
  private final int keyColumn;
  private long rowsLeftInGroup;

  private BaseFileRows(ParquetFileReader reader, Path path, MessageType schema, Schema avroSchema, int keyColumn) {
    this.reader = reader;
    this.path = path;
    this.schema = schema;
    this.avroSchema = avroSchema;
    this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
    this.columns = schema.getColumns().toArray(new ColumnDescriptor[0]);
    int n = columns.length;
    this.types = new PrimitiveType.PrimitiveTypeName[n];
    this.names = new String[n];
    this.maxDefinition = new int[n];
    for (int c = 0; c < n; c++) {
      types[c] = columns[c].getPrimitiveType().getPrimitiveTypeName();
      names[c] = schema.getFieldName(c);
      maxDefinition[c] = columns[c].getMaxDefinitionLevel();
    }
    this.readers = new ColumnReader[n];
    this.present = new boolean[n];
    this.longs = new long[n];
    this.ints = new int[n];
    this.floats = new float[n];
    this.doubles = new double[n];
    this.booleans = new boolean[n];
    this.binaries = new Binary[n];
    this.keyColumn = keyColumn;
  }

  /**
   * The rows of the base file at {@code path}, to be copied into a file of {@code targetSchema}
   * (the Parquet schema {@link BaseFileWriter#parquetSchema} gives for {@code avroSchema}); empty
   * when they cannot be copied as they are: the file's top-level fields differ from the target's
   * (the root's name aside: Spark's row writer calls it {@code spark_schema}), or a field is not a
   * top-level primitive, or is an INT96 (which parquet-avro does not read). The file's footer is
   * read once.
   *
   * @param keyField the column whose value {@link #recordKey} gives
   */
  public static Optional<BaseFileRows> open(Configuration conf, Path path, MessageType targetSchema, Schema avroSchema,
      String keyField) {
    if (!copyable(targetSchema) || !targetSchema.containsField(keyField)) {
      return Optional.empty();
    }
    ParquetFileReader reader = openFile(conf, path);
    MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
    if (!fileSchema.getFields().equals(targetSchema.getFields())) {
      close(reader, path);
      return Optional.empty();
    }
    return Optional.of(new BaseFileRows(reader, path, targetSchema, avroSchema, targetSchema.getFieldIndex(keyField)));
  }

  /**
   * Gives the value of the column {@code keyField} of every row of the base file at {@code path} to
   * {@code keys}, in file order (null for a row without one, or for every row of a file without the
   * column), reading that column alone and the footer once.
   *
   * @return the number of rows
   */
  public static long forEachKey(Configuration conf, Path path, String keyField, Consumer<String> keys) {
    try (ParquetFileReader reader = openFile(conf, path)) {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      if (!fileSchema.containsField(keyField)) {
        long rows = reader.getRecordCount();
        for (long i = 0; i < rows; i++) {
          keys.accept(null);
        }
        return rows;
      }
      Type keyType = fileSchema.getType(keyField);
      if (!keyType.isPrimitive() || keyType.isRepetition(Type.Repetition.REPEATED)
          || keyType.asPrimitiveType().getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY) {
        throw new CorruptFileException("base file " + path + " has a column " + keyField + " that is not a string: "
            + keyType);
      }
      MessageType keyOnly = new MessageType(fileSchema.getName(), keyType);
      reader.setRequestedSchema(keyOnly);
      ColumnDescriptor column = keyOnly.getColumns().get(0);
      String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
      int maxDefinition = column.getMaxDefinitionLevel();
      long rows = 0;
      while (true) {
        PageReadStore pages;
        ColumnReader values;
        try {
          pages = reader.readNextRowGroup();
          if (pages == null) {
            return rows;
          }
          values = new ColumnReadStoreImpl(pages, NO_CONVERTER, keyOnly, createdBy).getColumnReader(column);
        } catch (IOException | RuntimeException e) {
          throw new CorruptFileException("cannot read the keys of base file " + path + ": " + e.getMessage(), e);
        }
        for (long i = 0, n = pages.getRowCount(); i < n; i++) {
          String key;
          try {
            key = values.getCurrentDefinitionLevel() == maxDefinition ? values.getBinary().toStringUsingUTF8() : null;
            values.consume();
          } catch (RuntimeException e) {
            throw new CorruptFileException("cannot read the keys of base file " + path + ": " + e.getMessage(), e);
          }
          keys.accept(key);
        }
        rows += pages.getRowCount();
      }
    } catch (IOException e) {
      throw new TableException("cannot close base file " + path, e);
    }
  }

  private static ParquetFileReader openFile(Configuration conf, Path path) {
    try {
      return ParquetFileReader.open(HadoopInputFile.fromPath(path, conf));
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException("cannot read parquet footer of base file " + path + ": " + e.getMessage(), e);
    }
  }

  private static boolean copyable(MessageType schema) {
    for (Type field : schema.getFields()) {
      if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)
          || field.asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96) {
        return false;
      }
    }
    return true;
  }

  /** The schema the rows are copied into. */
  public MessageType schema() {
    return schema;
  }

  /** Moves to the next row; false at the end of the file. */
  public boolean next() {
    try {
      while (rowsLeftInGroup == 0) {
        PageReadStore pages = reader.readNextRowGroup();
        if (pages == null) {
          return false;
        }
        rowsLeftInGroup = pages.getRowCount();
        var store = new ColumnReadStoreImpl(pages, NO_CONVERTER, schema, createdBy);
        for (int c = 0; c < columns.length; c++) {
          readers[c] = store.getColumnReader(columns[c]);
        }
      }
      for (int c = 0; c < columns.length; c++) {
        ColumnReader column = readers[c];
        boolean has = column.getCurrentDefinitionLevel() == maxDefinition[c];
        present[c] = has;
        if (has) {
          switch (types[c]) {
            case INT64 -> longs[c] = column.getLong();
            case INT32 -> ints[c] = column.getInteger();
            case DOUBLE -> doubles[c] = column.getDouble();
            case FLOAT -> floats[c] = column.getFloat();
            case BOOLEAN -> booleans[c] = column.getBoolean();
            default -> binaries[c] = column.getBinary();
          }
        } else {
          binaries[c] = null;
        }
        column.consume();
      }
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException("cannot read rows of base file " + path + ": " + e.getMessage(), e);
    }
    rowsLeftInGroup--;
    return true;
  }

  /** The current row's record key, null when the row has none. */
  public String recordKey() {
    return present[keyColumn] ? binaries[keyColumn].toStringUsingUTF8() : null;
  }

  /**
   * The current row's value of the field {@code name}, as parquet-avro reads it into the writer
   * schema for a rewrite ({@link BaseFileReader#recordsToRewrite}): raw values of logical types,
   * strings as {@code Utf8}; null when the row has none.
   */
  public Object avroValue(String name) {
    int c = schema.getFieldIndex(name);
    if (!present[c]) {
      return null;
    }
    Schema field = nonNull(avroSchema.getField(name).schema());
    return switch (types[c]) {
      case INT64 -> longs[c];
      case INT32 -> ints[c];
      case DOUBLE -> doubles[c];
      case FLOAT -> floats[c];
      case BOOLEAN -> booleans[c];
      default -> switch (field.getType()) {
        case STRING -> new Utf8(binaries[c].getBytes());
        case ENUM -> new GenericData.EnumSymbol(field, binaries[c].toStringUsingUTF8());
        case FIXED -> new GenericData.Fixed(field, binaries[c].getBytes());
        default -> ByteBuffer.wrap(binaries[c].getBytes());
      };
    };
  }

  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    List<Schema> branches = schema.getTypes();
    return branches.stream().filter(s -> s.getType() != Schema.Type.NULL).findFirst().orElse(schema);
  }

  /** Writes the current row as parquet-avro writes its record: the present fields in order. */
  void writeTo(RecordConsumer out) {
    out.startMessage();
    for (int c = 0; c < columns.length; c++) {
      if (!present[c]) {
        continue;
      }
      out.startField(names[c], c);
      switch (types[c]) {
        case INT64 -> out.addLong(longs[c]);
        case INT32 -> out.addInteger(ints[c]);
        case DOUBLE -> out.addDouble(doubles[c]);
        case FLOAT -> out.addFloat(floats[c]);
        case BOOLEAN -> out.addBoolean(booleans[c]);
        default -> out.addBinary(binaries[c]);
      }
      out.endField(names[c], c);
    }
    out.endMessage();
  }

  @Override
  public void close() {
    close(reader, path);
  }

  private static void close(ParquetFileReader reader, Path path) {
    try {
      reader.close();
    } catch (IOException e) {
      throw new TableException("cannot close base file " + path, e);
    }
  }
}
