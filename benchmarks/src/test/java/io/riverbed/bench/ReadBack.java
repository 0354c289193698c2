package io.riverbed.bench;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.table.Table;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;

/**
 * A {@link ScaleStream} table read back through the core reader (snapshot query, every column):
 * every row's key decoded from its uuid, counted once; its ordering value compared with the key's
 * last event; every {@value #SAMPLE_EVERY}-th key compared field by field with that event's values.
 */
record ReadBack(long rows, long distinctKeys, long duplicates, long staleRows, long sampled, long sampleMismatches,
    double seconds) {
  static final int SAMPLE_EVERY = 997;

  static ReadBack of(Path path, ScaleStream stream) {
    long start = System.nanoTime();
    int[] last = stream.lastEvents();
    BitSet seen = new BitSet(Math.toIntExact(stream.keys));
    long rows = 0;
    long duplicates = 0;
    long stale = 0;
    long sampled = 0;
    long mismatches = 0;
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(path.toUri());
    try {
      Table table = Table.open(base.getFileSystem(new Configuration()), base);
      QueryPlan plan = QueryPlanner.plan(table, QuerySpec.snapshot());
      SplitReader reader = SplitReader.of(plan, ReadSettings.defaults());
      Schema schema = FlinkWriteBenchmark.schema();
      for (Split split : plan.splits()) {
        try (CloseableIterator<GenericRecord> it = reader.read(split, Optional.empty())) {
          while (it.hasNext()) {
            GenericRecord r = it.next();
            rows++;
            long key = ScaleStream.keyOfUuid(r.get("uuid").toString());
            if (key < 0 || key >= stream.keys) {
              stale++;
              continue;
            }
            if (seen.get((int) key)) {
              duplicates++;
            }
            seen.set((int) key);
            long e = last[(int) key];
            if (((Number) r.get("ts")).longValue() != FlinkWriteBenchmark.TS0 + e) {
              stale++;
            }
            if (key % SAMPLE_EVERY == 0) {
              sampled++;
              Object[] expected = ScaleStream.values(key, e);
              for (int i = 0; i < expected.length; i++) {
                Object actual = r.get(schema.getFields().get(i).name());
                Object a = actual instanceof CharSequence cs ? cs.toString() : actual;
                if (!Objects.equals(a, expected[i])) {
                  mismatches++;
                  break;
                }
              }
            }
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read table " + path, e);
    }
    return new ReadBack(rows, seen.cardinality(), duplicates, stale, sampled, mismatches, (System.nanoTime() - start) / 1e9);
  }
}
