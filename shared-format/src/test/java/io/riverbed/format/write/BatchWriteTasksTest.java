package io.riverbed.format.write;

import static io.riverbed.format.write.WriteTestSupport.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.query.SplitKeyReader;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.format.write.batch.EncodedChange;
import io.riverbed.format.write.batch.ExistingKeys;
import io.riverbed.format.write.batch.InsertBuckets;
import io.riverbed.format.write.batch.TaskWrite;
import io.riverbed.format.write.commit.CommitMessage;
import io.riverbed.format.write.commit.Committable;
import io.riverbed.format.write.commit.TableCommitter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
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
    new TestWriter(table, WriteOptions.defaults()).write(List.of(upsert("1", "a", 1, "2024-01-01"),
        upsert("2", "b", 1, "2024-01-01"), upsert("3", "c", 1, "2024-01-02")));
    write(table, WriteOperationType.UPSERT, List.of(upsert("1", "a2", 2, "2024-01-01"), upsert("3", "c0", 0, "2024-01-02"),
        upsert("4", "d", 1, "2024-01-02")));
    assertThat(WriteTestSupport.namesAndTs(table.reload()))
        .containsExactly(Map.entry("1", "a2@2"), Map.entry("2", "b@1"), Map.entry("3", "c@1"), Map.entry("4", "d@1"));
  }

  @Test
  void mergeOnReadUpsertsPutNewKeysInBaseFilesAndUpdatesOfOtherGroupsInLogs() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TwoBatches batches = TwoBatches.updatingEvery(1);
    List<WriteRecord> first = batches.first();
    List<WriteRecord> second = batches.second();
    Map<String, String> model = batches.model();
    write(table, WriteOperationType.UPSERT, first);
    assertThat(logFiles(table)).isEmpty();
    Set<String> firstGroups = readOptimized(table).values().stream().map(BatchWriteTasksTest::fileId)
        .collect(Collectors.toSet());

    write(table, WriteOperationType.UPSERT, second);
    Map<String, GenericRecord> readOptimized = readOptimized(table);
    assertThat(readOptimized.keySet()).isEqualTo(model.keySet());
    assertThat(logFiles(table)).isNotEmpty();
    Map<String, Set<String>> rewrittenGroupsByPartition = new TreeMap<>();
    readOptimized.forEach((key, row) -> {
      if (key.startsWith("k") && row.get("name").toString().equals("v2")) {
        rewrittenGroupsByPartition.computeIfAbsent(row.get("dt").toString(), p -> new TreeSet<>()).add(fileId(row));
      }
    });
    assertThat(rewrittenGroupsByPartition.values()).allSatisfy(groups -> assertThat(groups).hasSize(1));
    assertThat(readOptimized.values().stream().filter(r -> r.get("name").toString().equals("v1"))
        .map(BatchWriteTasksTest::fileId)).anyMatch(firstGroups::contains);
    assertThat(WriteTestSupport.namesAndTs(table.reload())).isEqualTo(model);
  }

  private static Map<String, GenericRecord> readOptimized(Table table) {
    Map<String, GenericRecord> rows = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table.reload(), QuerySpec.readOptimized())) {
      rows.put(r.get(MetaFields.RECORD_KEY).toString(), r);
    }
    return rows;
  }

  private static String fileId(GenericRecord row) {
    return FileNames.parseBaseFileName(row.get(MetaFields.FILE_NAME).toString()).orElseThrow().fileId();
  }

  private static List<LogFile> logFiles(Table table) {
    Table t = table.reload();
    var view = FileSystemViewLoader.load(t, t.refreshTimeline());
    return view.fileGroups().stream().flatMap(g -> view.latestSliceForWrite(g.id()).stream())
        .flatMap(slice -> slice.logFiles().stream()).toList();
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

  @Test
  void aPlannedUpsertFillsEachPartitionsSmallestGroupBeforeItOpensNewOnes() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.MERGE_ON_READ);
    TwoBatches batches = TwoBatches.updatingEvery(3);
    write(table, WriteOperationType.UPSERT, batches.first(), true);
    Map<String, Set<String>> groupsAfterFirst = groupsByPartition(readOptimized(table));
    assertThat(groupsAfterFirst.values()).as("the new table's keys: one new group per partition, not one per task")
        .allSatisfy(groups -> assertThat(groups).hasSize(1));

    write(table, WriteOperationType.UPSERT, batches.second(), true);
    assertThat(groupsByPartition(readOptimized(table))).as("the new keys topped up the partitions' small groups")
        .isEqualTo(groupsAfterFirst);
    assertThat(logFiles(table)).as("the topped-up groups were rewritten with their updates").isEmpty();
    assertThat(WriteTestSupport.namesAndTs(table.reload())).isEqualTo(batches.model());
  }

  /** 30 keys over two partitions, then every {@code n}th of them updated and 30 new keys; the rows expected after both. */
  record TwoBatches(List<WriteRecord> first, List<WriteRecord> second, Map<String, String> model) {
    static TwoBatches updatingEvery(int n) {
      var out = new TwoBatches(new ArrayList<>(), new ArrayList<>(), new TreeMap<>());
      for (int i = 0; i < 30; i++) {
        String dt = i % 2 == 0 ? "2024-01-01" : "2024-01-02";
        out.first.add(upsert("k" + i, "v1", 1, dt));
        if (i % n == 0) {
          out.second.add(upsert("k" + i, "v2", 2, dt));
        }
        out.second.add(upsert("n" + i, "v1", 1, dt));
        out.model.put("k" + i, i % n == 0 ? "v2@2" : "v1@1");
        out.model.put("n" + i, "v1@1");
      }
      return out;
    }
  }

  private static Map<String, Set<String>> groupsByPartition(Map<String, GenericRecord> rows) {
    Map<String, Set<String>> out = new TreeMap<>();
    rows.values().forEach(r -> out.computeIfAbsent(r.get("dt").toString(), p -> new TreeSet<>()).add(fileId(r)));
    return out;
  }

  private static void write(Table table, WriteOperationType operation, List<WriteRecord> batch) {
    write(table, operation, batch, false);
  }

  /**
   * One batch write: every change encoded, combined per key, located, routed and written by its
   * task; {@code planned}: new keys placed by one {@link InsertBuckets} plan, else by each task.
   */
  private static void write(Table table, WriteOperationType operation, List<WriteRecord> batch, boolean planned) {
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
    Map<String, Long> newKeys = new HashMap<>();
    byKey.forEach((k, c) -> {
      if (!located.containsKey(k) && !c.isDelete()) {
        newKeys.merge(c.partitionPath(), 1L, Long::sum);
      }
    });
    InsertBuckets insertPlan = planned ? InsertBuckets.plan(table.reload(), WriteOptions.defaults(), 1, newKeys) : null;
    byKey.forEach((k, c) -> {
      var routed = new TaskWrite.Routed(c, located.get(k));
      if (insertPlan != null) {
        routed = TaskWrite.placed(routed, insertPlan);
      }
      if (routed != null) {
        tasks.get(TaskWrite.taskOf(routed, TASKS)).add(routed);
      }
    });
    TableCommitter committer = TableCommitter.of(table, "batch-test").operationType(operation)
        .schema(WriteTestSupport.SCHEMA);
    String instant = committer.begin();
    var options = BatchWriteOptions.fromMap(Map.of(BatchWriteOptions.OPERATION, operation.value()));
    List<CommitMessage> messages = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      messages.add(TaskWrite.write(table, WriteTestSupport.SCHEMA, options, instant, i, TASKS, 0, insertPlan, tasks.get(i).iterator()));
    }
    committer.commit(new Committable(1, instant, messages, Map.of()));
  }
}
