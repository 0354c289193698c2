package io.riverbed.format.write.commit;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.WriterLease;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;

/**
 * A table's schema changed by {@code ALTER TABLE}, as Hudi commits it: an {@code alter_schema}
 * commit ({@code deltacommit} on MERGE_ON_READ) with no files and the new schema in its metadata,
 * so every reader and later writer takes it. The engines' DDL (Spark SQL, the Flink catalog) share it.
 */
public final class SchemaChangeCommit {
  private static final Duration LEASE_TIMEOUT = Duration.ofSeconds(60);

  private SchemaChangeCommit() {}

  /**
   * Commits {@code schema} (without meta fields) under the table's writer lease.
   *
   * @param engine names the writer id ({@code <engine>-<uuid>})
   * @param holder who holds the lease meanwhile, for the error another writer gets
   * @return the instant committed
   */
  public static String commit(Table table, Schema schema, String engine, String holder) {
    String writerId = engine + "-" + UUID.randomUUID();
    WriterLease lease = WriterLease.acquire(table, writerId, holder, LEASE_TIMEOUT);
    try {
      TableCommitter committer = TableCommitter.of(table, writerId).operationType(WriteOperationType.ALTER_SCHEMA)
          .schema(schema).beforeCommit(lease::checkHeld);
      String instant = committer.begin();
      committer.commit(new Committable(1, instant, List.of(), Map.of()));
      return instant;
    } finally {
      lease.release();
    }
  }
}
