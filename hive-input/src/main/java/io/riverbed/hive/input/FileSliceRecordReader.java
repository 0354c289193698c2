package io.riverbed.hive.input;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.ArrayWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.RecordReader;

/**
 * Reads one {@link FileSliceSplit} with the core's {@link SplitReader} (base file and logs merged
 * as the plan says, deletes applied) and hands Hive each record as an {@link ArrayWritable} of
 * the table's columns in Hive's order, the columns the query does not read left null. Only the
 * read columns are read from a base file without logs.
 */
final class FileSliceRecordReader implements RecordReader<NullWritable, ArrayWritable> {
  private final FileSliceSplit split;
  private final HiveColumns columns;
  private final CloseableIterator<GenericRecord> records;
  private final long bytes;
  private long rows;

  private FileSliceRecordReader(FileSliceSplit split, HiveColumns columns, CloseableIterator<GenericRecord> records) {
    this.split = split;
    this.columns = columns;
    this.records = records;
    this.bytes = split.getLength();
  }

  static FileSliceRecordReader open(FileSliceSplit split, FileSystem fs, HiveColumns columns, ReadSettings settings) {
    Table table = Table.open(fs, split.basePath());
    SplitReader reader = SplitReader.of(split.plan().rebuild(table), settings);
    Schema schema = reader.tableSchema();
    List<String> read = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      if (columns.read().contains(f.name().toLowerCase(java.util.Locale.ROOT))) {
        read.add(f.name());
      }
    }
    return new FileSliceRecordReader(split, columns, reader.read(split.split(), Optional.of(TableSchemas.projection(schema, read))));
  }

  @Override
  public boolean next(NullWritable key, ArrayWritable value) {
    if (!records.hasNext()) {
      return false;
    }
    GenericRecord record = records.next();
    Schema schema = record.getSchema();
    Writable[] row = new Writable[columns.names().size()];
    for (int i = 0; i < row.length; i++) {
      String name = columns.names().get(i);
      if (!columns.read().contains(name)) {
        continue;
      }
      Schema.Field field = HiveWritables.fieldIgnoringCase(schema, name);
      if (field != null) {
        row[i] = HiveWritables.toWritable(record.get(field.pos()), field.schema(), columns.types().get(i),
            "record " + key(record) + " of " + split + ", column " + name);
      }
    }
    value.set(row);
    rows++;
    return true;
  }

  private static Object key(GenericRecord record) {
    return record.getSchema().getField("_hoodie_record_key") == null ? "?" : record.get("_hoodie_record_key");
  }

  @Override
  public NullWritable createKey() {
    return NullWritable.get();
  }

  @Override
  public ArrayWritable createValue() {
    return new ArrayWritable(Writable.class, new Writable[columns.names().size()]);
  }

  @Override
  public long getPos() {
    return rows;
  }

  @Override
  public void close() {
    records.close();
  }

  @Override
  public float getProgress() {
    return records.hasNext() ? 0.5f : 1.0f;
  }
}
