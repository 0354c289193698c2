package io.riverbed.bench;

import io.riverbed.flink.job.TableSinkBuilder;
import org.apache.flink.table.types.logical.RowType;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.flink.LogicalTypeConversion;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.paimon.fs.Path;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;

/**
 * The baseline writer of the Flink write benchmark: Apache Paimon's primary-key table (defaults:
 * dynamic buckets, deduplicate merge engine, compaction in the writers), with the benchmark's record
 * key and partition fields and {@code ts} as its sequence field, written by Paimon's own DataStream sink.
 */
final class PaimonSink {
  private static final Identifier TABLE = Identifier.create("bench", "trips");

  private PaimonSink() {}

  /** A sink builder writing into a new Paimon warehouse at the benchmark's table path. */
  static TableSinkBuilder primaryKeyTable(String recordKey, String[] partitionFields, String sequenceField,
      int parallelism) {
    return (rows, rowType, options) -> {
      Table table = create(options.get("path"), rowType, recordKey, partitionFields, sequenceField);
      return new FlinkSinkBuilder(table).forRowData(rows).parallelism(parallelism).build();
    };
  }

  private static Table create(String warehouse, RowType rowType, String recordKey, String[] partitionFields,
      String sequenceField) {
    try (Catalog catalog = catalog(warehouse)) {
      Schema.Builder schema = Schema.newBuilder();
      for (RowType.RowField field : rowType.getFields()) {
        schema.column(field.getName(), LogicalTypeConversion.toDataType(field.getType()));
      }
      String[] key = new String[partitionFields.length + 1];
      key[0] = recordKey;
      System.arraycopy(partitionFields, 0, key, 1, partitionFields.length);
      schema.primaryKey(key).partitionKeys(partitionFields).option("sequence.field", sequenceField);
      catalog.createDatabase(TABLE.getDatabaseName(), true);
      catalog.createTable(TABLE, schema.build(), false);
      return catalog.getTable(TABLE);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create the Paimon table in " + warehouse, e);
    }
  }

  /** The rows a snapshot read of the Paimon table at {@code warehouse} returns (one per key). */
  static long liveRecords(String warehouse) throws Exception {
    try (Catalog catalog = catalog(warehouse)) {
      var read = catalog.getTable(TABLE).newReadBuilder();
      long[] rows = {0};
      try (RecordReader<org.apache.paimon.data.InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
        reader.forEachRemaining(row -> rows[0]++);
      }
      return rows[0];
    }
  }

  private static Catalog catalog(String warehouse) {
    return CatalogFactory.createCatalog(CatalogContext.create(new Path(warehouse)));
  }
}
