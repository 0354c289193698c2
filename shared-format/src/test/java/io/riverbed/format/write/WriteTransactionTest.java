package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineSchemas;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteTransactionTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void instantsAreStrictlyIncreasingAndAfterEveryInstantOnTheTimeline() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    List<String> times = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      times.add(WriteTransaction.start(table, WriteOperationType.UPSERT).instantTime());
    }
    assertThat(times).isSorted().doesNotHaveDuplicates().allSatisfy(t -> assertThat(t).hasSize(17));
    store.createRequested("29990101000000000", Action.CLEAN, new byte[0]);
    assertThat(WriteTransaction.start(table, WriteOperationType.UPSERT).instantTime()).isGreaterThan("29990101000000000");
  }

  @Test
  void startingAWriteTurnsOffAMetadataTableHudiLeftEnabled() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ)
        .updateConfig(java.util.Map.of("hoodie.table.metadata.partitions", "files"));
    org.apache.hadoop.fs.Path mdt = table.metadataTablePath();
    table.fs().mkdirs(new org.apache.hadoop.fs.Path(mdt, "files"));

    WriteTransaction.start(table, WriteOperationType.UPSERT);

    assertThat(table.fs().exists(mdt)).isFalse();
    Table reopened = Table.open(table.fs(), table.basePath());
    assertThat(reopened.config().metadataPartitions()).isEmpty();
    assertThat(reopened.config().isMetadataTableAvailable()).isFalse();
  }

  @Test
  void startWritesEmptyRequestedAndInflightAndCommitWritesTheSchemaAndExtraMetadata() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.UPSERT);
    String t = tx.instantTime();
    assertThat(tx.action()).isEqualTo(Action.DELTA_COMMIT);
    assertThat(store.read(Instant.requested(t, Action.DELTA_COMMIT))).isEmpty();
    assertThat(store.read(Instant.inflight(t, Action.DELTA_COMMIT))).isEmpty();
    var ctx = WriteTaskContext.single(table, t, WriteTestSupport.SCHEMA);
    AppendHandle.of(ctx, new io.riverbed.format.file.FileGroupId("2024-01-01", "g1"), java.util.Optional.empty())
        .append(List.of(upsert("1", "a", 1, "2024-01-01"))).ifPresent(tx::addWriteStat);
    assertThat(Markers.of(table.fs(), table.metaPath(), t).list()).hasSize(1);

    CommitMetadata written = tx.commit(WriteTestSupport.SCHEMA, Map.of("flink.job.id", "job-1", "flink.checkpoint.id", "7"));
    CommitMetadata read = CommitMetadata.fromJson(store.read(Instant.completed(t, Action.DELTA_COMMIT)), t);
    assertThat(read.operationType()).isEqualTo(WriteOperationType.UPSERT);
    assertThat(read.compacted()).isFalse();
    assertThat(read.schema()).contains(WriteTestSupport.SCHEMA.toString());
    assertThat(read.extraMetadata()).containsEntry("flink.checkpoint.id", "7").containsEntry("flink.job.id", "job-1");
    assertThat(read.writeStats()).isEqualTo(written.writeStats());
    assertThat(Markers.of(table.fs(), table.metaPath(), t).list()).isEmpty();
    assertThatThrownBy(() -> tx.commit(WriteTestSupport.SCHEMA, Map.of())).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void copyOnWriteWritesCommitAndOverwriteWritesReplacecommitWithReplacedFileIds() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    assertThat(WriteTransaction.start(table, WriteOperationType.INSERT).action()).isEqualTo(Action.COMMIT);

    WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.INSERT_OVERWRITE);
    assertThat(tx.action()).isEqualTo(Action.REPLACE_COMMIT);
    byte[] requested = store.read(Instant.requested(tx.instantTime(), Action.REPLACE_COMMIT));
    GenericRecord plan = AvroTimelineFile.deserialize(requested, TimelineSchemas.REQUESTED_REPLACE_METADATA, "t")
        .orElseThrow();
    assertThat(plan.get("operationType")).isNull();
    assertThat(plan.get("clusteringPlan")).isNull();
    tx.addReplacedFileIds("2024-01-01", List.of("old-1", "old-2"));
    tx.commit(WriteTestSupport.SCHEMA, Map.of());
    CommitMetadata read = CommitMetadata.fromJson(
        store.read(Instant.completed(tx.instantTime(), Action.REPLACE_COMMIT)), "t");
    assertThat(read.replacedFileIds()).containsExactly(Map.entry("2024-01-01", List.of("old-1", "old-2")));
    assertThat(read.operationType()).isEqualTo(WriteOperationType.INSERT_OVERWRITE);
  }

  @Test
  void completedCommitIsFoundByItsExtraMetadata() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TestWriter writer = new TestWriter(table, WriteOptions.defaults());
    String t1 = writer.write(List.of(upsert("1", "a", 1, "2024-01-01")), Map.of("job", "j", "checkpoint", "1"));
    String t2 = writer.write(List.of(upsert("1", "b", 2, "2024-01-01")), Map.of("job", "j", "checkpoint", "2"));
    WriteTransaction.start(table, WriteOperationType.UPSERT);

    assertThat(CommitLookup.findCompleted(table, "checkpoint", "1")).map(Instant::time).contains(t1);
    assertThat(CommitLookup.findCompleted(table, "checkpoint", "2")).map(Instant::time).contains(t2);
    assertThat(CommitLookup.findCompleted(table, "checkpoint", "3")).isEmpty();
    assertThat(CommitLookup.latestValue(table, "checkpoint")).contains("2");
  }

  @Test
  void commitFailsOnceTheInstantWasRolledBack() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.UPSERT);
    Rollback.of(table, tx.instantTime()).execute();
    assertThatThrownBy(() -> tx.commit(WriteTestSupport.SCHEMA, Map.of()))
        .isInstanceOf(TableException.class).hasMessageContaining(tx.instantTime()).hasMessageContaining("rolled back");
  }

  @Test
  void resumedTransactionCommitsThePendingInstant() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    String t = WriteTransaction.start(table, WriteOperationType.UPSERT).instantTime();
    WriteTransaction resumed = WriteTransaction.resume(table, t, WriteOperationType.UPSERT);
    resumed.commit(WriteTestSupport.SCHEMA, Map.of());
    assertThatThrownBy(() -> WriteTransaction.resume(table, t, WriteOperationType.UPSERT))
        .isInstanceOf(TableException.class).hasMessageContaining(t);
    assertThat(CommitConflictException.class).isAssignableTo(TableException.class);
  }

  @Test
  void filesWrittenForTheInstantThatNoCommittedStatNamesAreDeletedBeforeTheCommitPoint() throws Exception {
    for (TableType type : TableType.values()) {
      Table table = WriteTestSupport.createTable(dir.resolve(type.name()), type);
      WriteTransaction tx = WriteTransaction.start(table, WriteOperationType.UPSERT);
      String t = tx.instantTime();
      // two tasks wrote for t; only the first one's result is part of the commit (the second wrote
      // after the checkpoint a restarted job commits t from)
      var reported = WriteTaskContext.of(table, t, 0, 2, 0, WriteTestSupport.SCHEMA, WriteOptions.defaults());
      var unreported = WriteTaskContext.of(table, t, 1, 2, 0, WriteTestSupport.SCHEMA, WriteOptions.defaults());
      var kept = write(type, reported, "g1", upsert("1", "a", 1, "2024-01-01"));
      var stray = write(type, unreported, "g2", upsert("2", "b", 1, "2024-01-01"));
      tx.addWriteStat(kept);
      var strayFile = new org.apache.hadoop.fs.Path(table.basePath(), stray.path());
      assertThat(table.fs().exists(strayFile)).isTrue();

      tx.commit(WriteTestSupport.SCHEMA, Map.of());

      assertThat(table.fs().exists(strayFile)).as("%s: the unreported file", type).isFalse();
      assertThat(table.fs().exists(new org.apache.hadoop.fs.Path(table.basePath(), kept.path()))).isTrue();
      assertThat(WriteTestSupport.namesAndTs(Table.open(table.fs(), table.basePath())))
          .as("%s: the committed table", type).containsOnlyKeys("1");
    }
  }

  private static io.riverbed.format.timeline.WriteStat write(TableType type, WriteTaskContext ctx, String fileId,
      WriteRecord record) {
    var id = new io.riverbed.format.file.FileGroupId("2024-01-01", fileId);
    return type == TableType.MERGE_ON_READ
        ? AppendHandle.of(ctx, id, java.util.Optional.empty()).append(List.of(record)).orElseThrow()
        : CreateHandle.of(ctx, id).write(List.of(record)).orElseThrow();
  }
}
