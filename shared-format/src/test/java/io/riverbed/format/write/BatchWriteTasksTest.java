package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitKeyReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.batch.EncodedChange;
import io.riverbed.format.write.batch.ExistingKeys;
import io.riverbed.format.write.batch.TaskWrite;
import io.riverbed.format.write.commit.CommitMessage;
import io.riverbed.format.write.commit.Committable;
import io.riverbed.format.write.commit.TableCommitter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch write as an engine drives it, without the engine: changes encoded, precombined, located
 * with {@link ExistingKeys}, routed to tasks with {@link TaskWrite#taskOf} and written by
 * {@link TaskWrite}, one instant for all tasks.
 */
class BatchWriteTasksTest {
  static final int TASKS = 3;
  @TempDir java.nio.file.Path dir;

  @Test
  void upsertsFindKeysThatOnlyMergeOnReadLogsHold() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    write(table, WriteOperationType.UPSERT, List.of(upsert("1", "a", 1, "2024-01-01"), upsert("2", "b", 1, "2024-01-01"),
        upsert("3", "c", 1, "2024-01-02")));
    write(table, WriteOperationType.UPSERT, List.of(upsert("1", "a2", 2, "2024-01-01"), upsert("3", "c0", 0, "2024-01-02"),
        upsert("4", "d", 1, "2024-01-02")));
    assertThat(WriteTestSupport.namesAndTs(table.reload()))
        .containsExactly(Map.entry("1", "a2@2"), Map.entry("2", "b@1"), Map.entry("3", "c@1"), Map.entry("4", "d@1"));
  }

  @Test
  void deletesOfUnknownKeysAreDroppedAndTheBatchKeepsTheLargerOrderingValue() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    write(table, WriteOperationType.UPSERT, List.of(upsert("1", "a", 1, "2024-01-01"), upsert("1", "late", 0, "2024-01-01"),
        upsert("2", "b", 1, "2024-01-01"), upsert("2", "b3", 3, "2024-01-01")));
    write(table, WriteOperationType.DELETE, List.of(WriteRecord.delete("1", "2024-01-01", null),
        WriteRecord.delete("9", "2024-01-01", null)));
    assertThat(WriteTestSupport.namesAndTs(table.reload())).containsExactly(Map.entry("2", "b3@3"));
  }

  @Test
  void changesOfOneFileGroupReachOneTask() {
    var change = new EncodedChange("k", "p", new byte[] {1, 0, 0, 0, 0}, null, 0);
    assertThat(TaskWrite.taskOf(new TaskWrite.Routed(change, "file-a"), TASKS))
        .isEqualTo(Math.floorMod("file-a".hashCode(), TASKS));
  }

  /** One batch write: every change encoded, combined per key, located, routed and written by its task. */
  private static void write(Table table, WriteOperationType operation, List<WriteRecord> batch) {
    var codec = new EncodedChange.Codec(WriteTestSupport.SCHEMA);
    Map<String, EncodedChange> byKey = new HashMap<>();
    long seq = 0;
    for (WriteRecord r : batch) {
      byKey.merge(r.partitionPath() + "/" + r.recordKey(), codec.encode(r, seq++), EncodedChange::precombine);
    }
    Map<String, String> located = new HashMap<>();
    var plan = ExistingKeys.plan(table.reload(), byKey.values().stream().map(EncodedChange::partitionPath).toList());
    if (!plan.splits().isEmpty()) {
      var reader = SplitKeyReader.of(plan, ReadSettings.defaults());
      plan.splits().forEach(s -> ExistingKeys.forEachLocation(reader, s,
          l -> located.put(l.partitionPath() + "/" + l.recordKey(), l.fileId())));
    }
    List<List<TaskWrite.Routed>> tasks = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      tasks.add(new ArrayList<>());
    }
    byKey.forEach((k, c) -> {
      var routed = new TaskWrite.Routed(c, located.get(k));
      tasks.get(TaskWrite.taskOf(routed, TASKS)).add(routed);
    });
    TableCommitter committer = TableCommitter.of(table, "batch-test").operationType(operation)
        .schema(WriteTestSupport.SCHEMA);
    String instant = committer.begin();
    List<CommitMessage> messages = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      messages.add(TaskWrite.write(table, WriteTestSupport.SCHEMA, WriteOptions.defaults(), TaskWrite.Placement.TABLE_TYPE, instant, i, TASKS, 0,
          tasks.get(i).iterator()));
    }
    committer.commit(new Committable(1, instant, messages, Map.of()));
  }
}
