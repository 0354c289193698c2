package io.riverbed.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TimelineTimezone;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.AppendHandle;
import io.riverbed.format.write.CreateHandle;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.format.write.WriteTaskContext;
import io.riverbed.format.write.WriteTransaction;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.spark.SliceSplit;
import io.riverbed.spark.SplitPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.collection.JavaConverters;

/**
 * An incremental query over one commit of a 50-commit MOR table plans input partitions for the
 * files that commit wrote and nothing else, as Spark sees the scan (the file slices packed into
 * the input partitions of the {@code BatchScanExec} Spark planned for the DataFrame of Riverbed's
 * DataSource).
 *
 * <p>The table, written with Riverbed's core write primitives: commit 1 creates 10 file groups
 * (base files) over 5 partitions; each of the 49 later commits appends one log file to one of them
 * in turn, and every seventh also starts a new log-only file group in another partition.
 */
class IncrementalScanReadsOnlyTheCommitsFilesTest {
  static final int COMMITS = 50;
  static final int PARTITIONS = 5;
  static final int GROUPS_PER_PARTITION = 2;
  static final int KEYS_PER_GROUP = 20;

  static final Schema SCHEMA = SchemaBuilder.record("fifty_record").namespace("hoodie.fifty").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredLong("amount")
      .requiredString("dt")
      .endRecord();

  /** Instant time and the files ({@code partition/file name}) written, per commit, in commit order. */
  record Written(String instant, TreeSet<String> files) {}

  static Path tablePath;
  static final List<Written> commits = new ArrayList<>();

  @BeforeAll
  static void writeFiftyCommits() throws IOException {
    tablePath = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "fifty-commits-").resolve("fifty");
    TableConfig config = TableConfig.builder("fifty")
        .database("default")
        .type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id"))
        .partitionFields(List.of("dt"))
        .precombineField("ts")
        .keyGeneratorClass("org.apache.hudi.keygen.ComplexKeyGenerator")
        .payloadClass(PayloadMergeRule.DEFAULT.payloadClass())
        .createSchema(SCHEMA.toString())
        .timelineTimezone(TimelineTimezone.UTC)
        .build();
    Table table = Table.create(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(tablePath.toUri()), config);
    RecordKeyer keyer = RecordKeyer.forTable(config);

    List<FileGroupId> groups = new ArrayList<>();
    Map<FileGroupId, List<String>> keys = new java.util.HashMap<>();
    WriteTransaction first = WriteTransaction.start(table, WriteOperationType.BULK_INSERT);
    WriteTaskContext firstCtx = WriteTaskContext.single(table, first.instantTime(), SCHEMA);
    for (int p = 0; p < PARTITIONS; p++) {
      for (int g = 0; g < GROUPS_PER_PARTITION; g++) {
        FileGroupId id = new FileGroupId(partition(p), FileNames.newFileId());
        List<WriteRecord> batch = new ArrayList<>();
        for (int k = 0; k < KEYS_PER_GROUP; k++) {
          String key = "k-" + p + "-" + g + "-" + k;
          keys.computeIfAbsent(id, x -> new ArrayList<>()).add(key);
          batch.add(keyer.toWriteRecord(record(key, 1, id.partitionPath())));
        }
        CreateHandle.of(firstCtx, id).write(batch).ifPresent(first::addWriteStat);
        groups.add(id);
      }
    }
    commit(first);

    for (int c = 2; c <= COMMITS; c++) {
      WriteTransaction txn = WriteTransaction.start(table, WriteOperationType.UPSERT);
      WriteTaskContext ctx = WriteTaskContext.single(table, txn.instantTime(), SCHEMA);
      var view = FileSystemViewLoader.load(table, TimelineStore.at(table.fs(), table.metaPath()).load());
      FileGroupId target = groups.get(c % groups.size());
      List<WriteRecord> updates = new ArrayList<>();
      List<String> targetKeys = keys.get(target);
      for (int k = 0; k < 3; k++) {
        updates.add(keyer.toWriteRecord(record(targetKeys.get((c + k) % targetKeys.size()), c, target.partitionPath())));
      }
      AppendHandle.of(ctx, target, view.latestSliceForWrite(target)).append(updates).ifPresent(txn::addWriteStat);
      if (c % 7 == 0) {
        FileGroupId fresh = new FileGroupId(partition((c / 7) % PARTITIONS), FileNames.newFileId());
        String key = "new-" + c;
        keys.put(fresh, new ArrayList<>(List.of(key)));
        groups.add(fresh);
        AppendHandle.of(ctx, fresh, Optional.empty())
            .append(List.of(keyer.toWriteRecord(record(key, c, fresh.partitionPath()))))
            .ifPresent(txn::addWriteStat);
      }
      commit(txn);
    }
  }

  private static void commit(WriteTransaction txn) {
    TreeSet<String> files = new TreeSet<>();
    for (WriteStat s : txn.writeStats()) {
      files.add(s.path());
    }
    txn.commit(SCHEMA, Map.of());
    commits.add(new Written(txn.instantTime(), files));
  }

  static String partition(int p) {
    return "2024-06-0" + (p + 1);
  }

  static GenericRecord record(String id, long ts, String partitionPath) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("ts", ts);
    r.put("amount", ts * 100);
    r.put("dt", partitionPath);
    return r;
  }

  @Test
  void incrementalOverOneCommitPlansOnlyThatCommitsFiles() {
    assertThat(commits).hasSize(COMMITS);
    for (int i = 1; i < COMMITS; i++) {
      Written previous = commits.get(i - 1);
      Written commit = commits.get(i);
      List<SplitPartition> planned = plannedPartitions(Query.incremental(previous.instant(), commit.instant()));
      String what = "incremental (" + previous.instant() + ", " + commit.instant() + "], commit " + (i + 1) + " of " + COMMITS;
      assertThat(filesRead(planned)).as(what).isNotEmpty().isEqualTo(commit.files());
      assertThat(splitsOf(planned)).as(what + ": one file slice per file group written, read whole, rows of that commit")
          .hasSize(commit.files().size())
          .allSatisfy(p -> assertThat(new InstantRange(p.rangeStart(), p.rangeStartInclusive(), p.rangeEnd()))
              .isEqualTo(InstantRange.closed(commit.instant(), commit.instant())))
          .allSatisfy(p -> assertThat(p.wholeBaseFile()).isTrue());
      assertThat(planned).as(what + ": no empty input partition").allSatisfy(p -> assertThat(p.splits()).isNotEmpty());
    }
  }

  @Test
  void incrementalOverTheFirstCommitPlansItsBaseFilesOnly() {
    Written first = commits.get(0);
    List<SplitPartition> planned = plannedPartitions(Query.incremental("000", first.instant()));
    assertThat(filesRead(planned)).isEqualTo(first.files()).hasSize(PARTITIONS * GROUPS_PER_PARTITION);
    assertThat(splitsOf(planned)).hasSize(PARTITIONS * GROUPS_PER_PARTITION).allSatisfy(p -> assertThat(p.logFiles()).isEmpty());
  }

  @Test
  void snapshotPlansEveryFileGroupWithAllItsLogs() {
    List<SplitPartition> planned = plannedPartitions(Query.snapshot());
    TreeSet<String> all = new TreeSet<>();
    commits.forEach(c -> all.addAll(c.files()));
    assertThat(filesRead(planned)).isEqualTo(all);
  }

  @Test
  void rowsOfOneCommitMatchHudis() {
    for (int i : new int[] {1, 6, COMMITS - 1}) { // a plain append, one that also starts a file group, the last
      Query q = Query.incremental(commits.get(i - 1).instant(), commits.get(i).instant());
      var expected = SparkOracle.read(tablePath, q);
      assertThat(expected.size()).as(q.toString()).isPositive();
      SparkOracle.canonicalRows(RiverbedSource.load(RiverbedSource.CLASS_NAME, tablePath, q))
          .assertSameAs(expected, "fifty-commit table " + q);
    }
  }

  /** The input partitions of the scan Spark planned for Riverbed's DataFrame. */
  static List<SplitPartition> plannedPartitions(Query query) {
    Dataset<Row> df = RiverbedSource.load(RiverbedSource.CLASS_NAME, tablePath, query);
    SparkPlan plan = df.queryExecution().sparkPlan();
    List<BatchScanExec> scans = JavaConverters.seqAsJavaList(plan.collectLeaves()).stream()
        .filter(BatchScanExec.class::isInstance).map(BatchScanExec.class::cast).toList();
    assertThat(scans).as("one batch scan in " + plan).hasSize(1);
    List<SplitPartition> out = new ArrayList<>();
    for (InputPartition p : JavaConverters.seqAsJavaList(scans.get(0).inputPartitions())) {
      out.add((SplitPartition) p);
    }
    return out;
  }

  /** The file slices packed into the partitions, in order. */
  static List<SliceSplit> splitsOf(List<SplitPartition> partitions) {
    return partitions.stream().flatMap(p -> p.splits().stream()).toList();
  }

  /** The files the partitions read, as {@code partition/file name}. */
  static TreeSet<String> filesRead(List<SplitPartition> partitions) {
    TreeSet<String> files = new TreeSet<>();
    for (SliceSplit p : splitsOf(partitions)) {
      if (p.baseFile() != null) {
        files.add(p.partitionPath() + "/" + new org.apache.hadoop.fs.Path(p.baseFile()).getName());
      }
      p.logFiles().forEach(l -> files.add(p.partitionPath() + "/" + new org.apache.hadoop.fs.Path(l).getName()));
    }
    return files;
  }
}
