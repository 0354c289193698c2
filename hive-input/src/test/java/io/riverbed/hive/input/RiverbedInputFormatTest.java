package io.riverbed.hive.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.Orders;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.serde2.ColumnProjectionUtils;
import org.apache.hadoop.io.ArrayWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input formats over a MERGE_ON_READ orders table the core wrote, used as Hive uses them:
 * input folders set on the job, {@code columns}/{@code columns.types} and the read columns as
 * Hive sets them, splits written and read back as Hive ships them to its tasks.
 */
class RiverbedInputFormatTest {
  static final String COLUMNS = "_hoodie_commit_time,_hoodie_commit_seqno,_hoodie_record_key,_hoodie_partition_path,"
      + "_hoodie_file_name,id,name,ts";
  static final String TYPES = "string:string:string:string:string:string:string:bigint";

  @TempDir
  Path dir;
  Table table;
  SingleTaskEngine engine;
  List<String> commits;

  @BeforeEach
  void writeTable() throws Exception {
    table = Table.create(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(dir.resolve("orders").toUri()),
        Orders.config(TableType.MERGE_ON_READ));
    engine = new SingleTaskEngine(table, Orders.SCHEMA, WriteOptions.defaults());
    commits = List.of(
        engine.write(WriteOperationType.BULK_INSERT, Orders.round(table.config(), 1), Map.of()),
        engine.write(WriteOperationType.UPSERT, Orders.round(table.config(), 2), Map.of()),
        engine.write(WriteOperationType.DELETE, List.of(WriteRecord.delete("k1", "2024-01-02", 3L)), Map.of()));
  }

  JobConf job(String... partitions) {
    JobConf job = new JobConf(new Configuration());
    List<org.apache.hadoop.fs.Path> dirs = new ArrayList<>();
    for (String p : partitions) {
      dirs.add(p.isEmpty() ? table.basePath() : new org.apache.hadoop.fs.Path(table.basePath(), p));
    }
    FileInputFormat.setInputPaths(job, dirs.toArray(new org.apache.hadoop.fs.Path[0]));
    job.set("columns", COLUMNS);
    job.set("columns.types", TYPES);
    return job;
  }

  /** Every row as "id name ts" (null for a column not read), splits shipped through their bytes first. */
  static List<String> read(RiverbedInputFormat format, JobConf job) throws Exception {
    List<String> rows = new ArrayList<>();
    for (InputSplit split : format.getSplits(job, 1)) {
      FileSliceSplit shipped = shipped((FileSliceSplit) split);
      RecordReader<NullWritable, ArrayWritable> reader = format.getRecordReader(shipped, job, Reporter.NULL);
      ArrayWritable value = reader.createValue();
      while (reader.next(reader.createKey(), value)) {
        Writable[] row = value.get();
        rows.add(row[5] + " " + row[6] + " " + row[7]);
      }
      reader.close();
    }
    rows.sort(null);
    return rows;
  }

  static FileSliceSplit shipped(FileSliceSplit split) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    split.write(new DataOutputStream(bytes));
    FileSliceSplit copy = new FileSliceSplit();
    copy.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertThat(copy.getPath()).isEqualTo(split.getPath());
    assertThat(copy.split()).isEqualTo(split.split());
    return copy;
  }

  @Test
  void readOptimizedReadsTheBaseFilesOfTheLatestSlicesOnly() throws Exception {
    assertThat(read(new ReadOptimizedInputFormat(), job(""))).containsExactly(
        "k0 r1 1", "k1 r1 1", "k2 r1 1", "k3 r1 1", "k4 r1 1", "k5 r1 1");
  }

  @Test
  void snapshotMergesLogsIntoBaseFilesAndLeavesDeletedKeysOut() throws Exception {
    assertThat(read(new SnapshotInputFormat(), job(""))).containsExactly(
        "k0 r2 2", "k2 r2 2", "k3 r2 2", "k4 r2 2", "k5 r2 2");
  }

  @Test
  void onlyThePartitionsHivePassesAreRead() throws Exception {
    assertThat(read(new SnapshotInputFormat(), job("2024-01-01"))).containsExactly("k0 r2 2", "k2 r2 2", "k4 r2 2");
    assertThat(read(new ReadOptimizedInputFormat(), job("2024-01-02"))).containsExactly("k1 r1 1", "k3 r1 1", "k5 r1 1");
  }

  @Test
  void anUncommittedWriteIsNotRead() throws Exception {
    engine.writeUncommitted(WriteOperationType.UPSERT, Orders.round(table.config(), 9));
    assertThat(read(new SnapshotInputFormat(), job(""))).containsExactly(
        "k0 r2 2", "k2 r2 2", "k3 r2 2", "k4 r2 2", "k5 r2 2");
  }

  @Test
  void onlyTheColumnsTheQueryReadsAreFilled() throws Exception {
    JobConf job = job("");
    ColumnProjectionUtils.appendReadColumns(job, List.of(5, 7), List.of("id", "ts"), List.of(), false);
    assertThat(read(new ReadOptimizedInputFormat(), job)).containsExactly(
        "k0 null 1", "k1 null 1", "k2 null 1", "k3 null 1", "k4 null 1", "k5 null 1");
  }

  @Test
  void oneSplitPerFileSliceWithItsPathInsideThePartition() throws Exception {
    InputSplit[] splits = new SnapshotInputFormat().getSplits(job(""), 1);
    assertThat(splits).hasSize(io.riverbed.format.query.QueryPlanner.plan(table,
        io.riverbed.format.query.QuerySpec.snapshot()).splits().size()).isNotEmpty();
    for (InputSplit s : splits) {
      FileSliceSplit split = (FileSliceSplit) s;
      assertThat(split.getPath().getParent().getName()).isEqualTo(split.split().slice().partitionPath());
      assertThat(split.getLength()).isPositive();
    }
    assertThat(java.util.Arrays.stream(splits).map(s -> ((FileSliceSplit) s).split().slice().fileGroupId()).distinct())
        .hasSize(splits.length);
  }

  @Test
  void aFolderOutsideAnyTableIsRefusedByName() throws Exception {
    JobConf job = job("");
    FileInputFormat.setInputPaths(job, new org.apache.hadoop.fs.Path(dir.toUri()));
    assertThatThrownBy(() -> new SnapshotInputFormat().getSplits(job, 1))
        .isInstanceOf(HiveInputException.class).hasMessageContaining("is not inside a Hudi table");
  }

  @Test
  void hudisClassNamesAnswerTheirQueries() throws Exception {
    assertThat(read(new org.apache.hudi.hadoop.HoodieParquetInputFormat(), job("")))
        .isEqualTo(read(new ReadOptimizedInputFormat(), job("")));
    assertThat(read(new org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat(), job("")))
        .isEqualTo(read(new SnapshotInputFormat(), job("")));
  }

  @Test
  void anIncrementalPullReadsTheRowsOfMaxCommitsCommitsAfterTheStart() throws Exception {
    JobConf job = job("");
    job.set("hoodie.orders.consume.mode", "INCREMENTAL");
    job.set("hoodie.orders.consume.start.timestamp", commits.get(0));
    assertThat(read(new SnapshotInputFormat(), job)).as("one commit by default: the upsert, before the delete")
        .containsExactly("k0 r2 2", "k1 r2 2", "k2 r2 2", "k3 r2 2", "k4 r2 2", "k5 r2 2");
    job.set("hoodie.orders.consume.max.commits", "-1");
    assertThat(read(new SnapshotInputFormat(), job)).containsExactly("k0 r2 2", "k2 r2 2", "k3 r2 2", "k4 r2 2", "k5 r2 2");
    job.set("hoodie.orders.consume.start.timestamp", commits.get(1));
    assertThat(read(new SnapshotInputFormat(), job)).as("the delete wrote no rows").isEmpty();
  }

  @Test
  void aSnapshotAsOfAnInstantReadsTheTableAsItWasThen() throws Exception {
    JobConf job = job("");
    job.set("hoodie.orders.consume.commit", commits.get(0));
    assertThat(read(new SnapshotInputFormat(), job)).containsExactly(
        "k0 r1 1", "k1 r1 1", "k2 r1 1", "k3 r1 1", "k4 r1 1", "k5 r1 1");
  }

  @Test
  void incrementalPullsWithoutAStartOrOfTheReadOptimizedViewAreRefusedByName() {
    JobConf job = job("");
    job.set("hoodie.orders.consume.mode", "incremental");
    assertThatThrownBy(() -> new SnapshotInputFormat().getSplits(job, 1)).isInstanceOf(HiveInputException.class)
        .hasMessageContaining("hoodie.orders.consume.start.timestamp");
    job.set("hoodie.orders.consume.start.timestamp", commits.get(0));
    assertThatThrownBy(() -> new ReadOptimizedInputFormat().getSplits(job, 1)).isInstanceOf(HiveInputException.class)
        .hasMessageContaining("_rt");
    job.set("hoodie.orders.consume.max.commits", "0");
    assertThatThrownBy(() -> new SnapshotInputFormat().getSplits(job, 1)).isInstanceOf(HiveInputException.class)
        .hasMessageContaining("hoodie.orders.consume.max.commits=0");
  }
}
