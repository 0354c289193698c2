package io.riverbed.spark;

import io.riverbed.format.record.TableSchemas;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.record.MetaFields;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Rows of a split through the core's split reader: base and log records merged by the table's
 * payload rule (spilling past the merge memory), incremental ranges applied; base-only splits
 * read only the needed columns with the pushed filters. Avro records become rows of the scan's
 * read schema.
 */
final class MergedRows extends RecordIteratorReader<GenericRecord> {
  private final List<String> columns;
  private final Map<Schema, AvroRowConverter> converters = new IdentityHashMap<>();

  MergedRows(ReadContext context, SliceSplit split) {
    super(records(context, split));
    this.columns = Arrays.asList(context.readSchema.fieldNames());
  }

  private static CloseableIterator<GenericRecord> records(ReadContext context, SliceSplit split) {
    Set<String> needed = new HashSet<>(Arrays.asList(context.readSchema.fieldNames()));
    if (split.incremental()) {
      needed.add(MetaFields.COMMIT_TIME);
    }
    Schema projection = TableSchemas.projection(context.avroSchema(), needed);
    return context.splitReader().read(split.toSplit(), Optional.of(projection),
        fileSchema -> ParquetPredicates.of(context.filters, fileSchema));
  }

  @Override
  InternalRow toRow(GenericRecord r) {
    return converters.computeIfAbsent(r.getSchema(), s -> AvroRowConverter.of(s, columns)).apply(r);
  }
}
