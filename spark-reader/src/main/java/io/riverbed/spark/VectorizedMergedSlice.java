package io.riverbed.spark;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.base.LookAheadIterator;
import io.riverbed.format.record.MetaFields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.sources.Filter;

/**
 * A snapshot slice with logs whose base file is decoded by Spark's vectorized reader, with the
 * scan's columns plus the record key and ordering field ({@link MergeColumns}), and merged with the
 * slice's log records by the core's payload rule. Only filters on the record key skip base row
 * groups: a merge never changes a key, and a log record whose base row was skipped comes out as
 * a log-only row with that same key, which Spark's own filter then drops; a filter on any other
 * column could hide a base row that a log record turns. Base rows that stand are handed over as
 * decoded; only the log records that win are converted from Avro.
 */
final class VectorizedMergedSlice extends RecordIteratorReader<InternalRow> {

  VectorizedMergedSlice(ReadContext context, SliceSplit split) {
    super(rows(context, split));
  }

  private static CloseableIterator<InternalRow> rows(ReadContext context, SliceSplit split) {
    MergeColumns columns = context.mergeColumns();
    List<String> names = Arrays.asList(context.readSchema.fieldNames());
    Map<Schema, AvroRowConverter> converters = new IdentityHashMap<>();
    return context.splitReader().mergeRows(split.toSplit(),
        iterator(new VectorizedBaseFile(context, split, columns.baseSchema(), onRecordKey(context.filters)).rows()), columns,
        r -> converters.computeIfAbsent(r.getSchema(), s -> AvroRowConverter.of(s, names)).apply(r));
  }

  private static Filter[] onRecordKey(Filter[] filters) {
    return Arrays.stream(filters)
        .filter(f -> Arrays.stream(f.references()).allMatch(MetaFields.RECORD_KEY::equals))
        .toArray(Filter[]::new);
  }

  private static CloseableIterator<InternalRow> iterator(PartitionReader<InternalRow> reader) {
    return new LookAheadIterator<>() {
      @Override
      protected InternalRow computeNext() {
        try {
          return reader.next() ? reader.get() : null;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void close() {
        try {
          reader.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  @Override
  InternalRow toRow(InternalRow row) {
    return row;
  }
}
