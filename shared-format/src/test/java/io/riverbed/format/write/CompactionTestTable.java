package io.riverbed.format.write;

import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.BaseFileWriter;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.log.AvroDataBlock;
import io.riverbed.format.log.CommandBlock;
import io.riverbed.format.log.DeleteBlock;
import io.riverbed.format.log.DeleteRecord;
import io.riverbed.format.log.LogEntry;
import io.riverbed.format.log.LogFileWriter;
import io.riverbed.format.log.MergedLogRecords;
import io.riverbed.format.log.SliceLogScanner;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.PartitionMetadata;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantCommittedPredicate;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.io.IOException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A small MERGE_ON_READ table for compaction tests: writes base files and log files directly and
 * the timeline instants around them, and reads the snapshot (latest merged slices) back the way a
 * Hudi reader merges them. Schema {@code id, ts, name}, key {@code id}, ordering field {@code ts}.
 */
final class CompactionTestTable {
  static final Schema SCHEMA = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("name")
      .endRecord();
  static final Schema SCHEMA_WITH_META = TableSchemas.addMetaFields(SCHEMA);

  private final Table table;
  private final TimelineStore store;
  private final InstantTime clock = InstantTime.generator(ZoneOffset.UTC);

  private CompactionTestTable(Table table) {
    this.table = table;
    this.store = TimelineStore.at(table.fs(), table.metaPath());
  }

  static CompactionTestTable create(java.nio.file.Path dir, PayloadMergeRule payload) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    TableConfig config = TableConfig.builder("trips").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).precombineField("ts").payloadClass(payload.payloadClass())
        .createSchema(SCHEMA.toString()).build();
    return new CompactionTestTable(Table.create(fs, new Path(dir.toUri().toString(), "trips"), config));
  }

  Table table() {
    return table;
  }

  TimelineStore store() {
    return store;
  }

  InstantTime clock() {
    return clock;
  }

  Timeline timeline() {
    return store.load();
  }

  /** A fresh instant time later than every instant on the timeline. */
  String nextInstant() {
    return clock.nextAfter(timeline().last().map(Instant::time).orElse(""));
  }

  /** One record of a write. */
  record Row(String partition, String fileId, String key, long ts, String name, boolean delete) {}

  static Row upsert(String partition, String fileId, String key, long ts, String name) {
    return new Row(partition, fileId, key, ts, name, false);
  }

  static Row delete(String partition, String fileId, String key, long ts) {
    return new Row(partition, fileId, key, ts, null, true);
  }

  /** A completed deltacommit that writes new base files (an insert into new file groups). */
  String insertBaseFiles(Row... rows) {
    String time = nextInstant();
    Instant inflight = begin(time);
    var stats = new ArrayList<WriteStat>();
    group(rows).forEach((id, groupRows) -> {
      String name = FileNames.baseFileName(id.fileId(), "0-1-0", time);
      Path path = new Path(folder(id.partitionPath()), name);
      BaseFileWriter writer = BaseFileWriter.create(table.fs().getConf(), path, SCHEMA_WITH_META, BaseFileOptions.defaults());
      int seq = 0;
      for (Row row : groupRows) {
        writer.write(record(row, time, seq++, name));
      }
      BaseFileWriter.Result result = writer.finish();
      stats.add(WriteStat.builder().fileId(id.fileId()).path(relative(id.partitionPath(), name))
          .partitionPath(id.partitionPath()).numWrites(groupRows.size()).numInserts(groupRows.size())
          .totalWriteBytes(result.fileSizeBytes()).fileSizeInBytes(result.fileSizeBytes()).build());
    });
    commit(inflight, stats);
    return time;
  }

  /** A completed deltacommit appending one new log file per file group touched. */
  String deltaCommit(Row... rows) {
    return deltaCommitDeclaring(SCHEMA, rows);
  }

  /** As {@link #deltaCommit}, its commit metadata naming {@code schema} (a writer that widened the table's). */
  String deltaCommitDeclaring(Schema schema, Row... rows) {
    String time = nextInstant();
    commit(begin(time), writeLogs(time, rows), schema);
    return time;
  }

  /** A deltacommit whose log files are written but which stays inflight (a failed or running write). */
  String pendingDeltaCommit(Row... rows) {
    String time = nextInstant();
    begin(time);
    writeLogs(time, rows);
    return time;
  }

  /**
   * Appends a rollback command block cancelling {@code target} to a file group, in a new log file
   * of its latest slice (what a rollback writes; the timeline is left alone). Returns the instant
   * of the command block.
   */
  String rollbackLog(String partition, String fileId, String target) {
    String time = nextInstant();
    var id = new FileGroupId(partition, fileId);
    FileSlice slice = FileSystemViewLoader.load(table, timeline()).latestSliceForWrite(id).orElseThrow();
    String name = FileNames.logFileName(fileId, slice.baseInstant(), nextLogVersion(id, slice.baseInstant()),
        FileNames.UNKNOWN_WRITE_TOKEN);
    LogFileWriter writer = LogFileWriter.create(table.fs(), new Path(folder(partition), name));
    try {
      writer.append(CommandBlock.rollback(time, target));
      writer.close();
    } finally {
      writer.abort();
    }
    return time;
  }

  private Instant begin(String time) {
    Instant requested = store.createRequested(time, Action.DELTA_COMMIT, new byte[0]);
    return store.transitionToInflight(requested, new byte[0]);
  }

  private void commit(Instant inflight, List<WriteStat> stats) {
    commit(inflight, stats, SCHEMA);
  }

  private void commit(Instant inflight, List<WriteStat> stats, Schema schema) {
    CommitMetadata metadata = CommitMetadata.builder(WriteOperationType.UPSERT).addWriteStats(stats)
        .schema(schema.toString()).build();
    store.complete(inflight, metadata.toJsonBytes());
  }

  private List<WriteStat> writeLogs(String time, Row... rows) {
    var stats = new ArrayList<WriteStat>();
    Timeline timeline = timeline();
    FileSystemView view = FileSystemViewLoader.load(table, timeline);
    group(rows).forEach((id, groupRows) -> {
      Optional<FileSlice> slice = view.latestSliceForWrite(id);
      String baseInstant = slice.map(FileSlice::baseInstant).orElse(time);
      int version = nextLogVersion(id, baseInstant);
      String name = FileNames.logFileName(id.fileId(), baseInstant, version, "0-1-0");
      Path path = new Path(folder(id.partitionPath()), name);
      var upserts = new ArrayList<GenericRecord>();
      var deletes = new ArrayList<DeleteRecord>();
      int seq = 0;
      for (Row row : groupRows) {
        if (row.delete()) {
          deletes.add(new DeleteRecord(row.key(), row.partition(), row.ts()));
        } else {
          upserts.add(record(row, time, seq++, id.fileId()));
        }
      }
      LogFileWriter writer = LogFileWriter.create(table.fs(), path);
      long size;
      try {
        if (!upserts.isEmpty()) {
          writer.append(AvroDataBlock.of(time, SCHEMA_WITH_META, upserts));
        }
        if (!deletes.isEmpty()) {
          writer.append(DeleteBlock.of(time, SCHEMA_WITH_META, deletes));
        }
        size = writer.close();
      } finally {
        writer.abort();
      }
      List<String> logNames = new ArrayList<>(slice.map(s -> s.logFiles().stream().map(LogFile::fileName).toList())
          .orElse(List.of()));
      logNames.add(name);
      stats.add(WriteStat.builder().fileId(id.fileId()).path(relative(id.partitionPath(), name))
          .partitionPath(id.partitionPath()).prevCommit(baseInstant).numWrites(upserts.size())
          .numDeletes(deletes.size()).totalWriteBytes(size).fileSizeInBytes(size)
          .delta(version, 0, slice.flatMap(FileSlice::baseFile).map(b -> b.fileName()).orElse(""), logNames)
          .build());
    });
    return stats;
  }

  private int nextLogVersion(FileGroupId id, String baseInstant) {
    int max = 0;
    for (FileStatus st : FileSystemViewLoader.listDataFiles(table, id.partitionPath())) {
      Optional<LogFile> log = LogFile.of(st.getPath(), st.getLen());
      if (log.isPresent() && log.get().fileId().equals(id.fileId()) && log.get().baseInstant().equals(baseInstant)) {
        max = Math.max(max, log.get().version());
      }
    }
    return max + 1;
  }

  private Map<FileGroupId, List<Row>> group(Row... rows) {
    Map<FileGroupId, List<Row>> groups = new LinkedHashMap<>();
    for (Row row : rows) {
      PartitionMetadata.writeIfAbsent(table.fs(), table.basePath(), row.partition(), "00000000000000");
      groups.computeIfAbsent(new FileGroupId(row.partition(), row.fileId()), k -> new ArrayList<>()).add(row);
    }
    return groups;
  }

  private static GenericRecord record(Row row, String time, int seq, String fileName) {
    GenericRecord r = new GenericData.Record(SCHEMA_WITH_META);
    r.put(MetaFields.COMMIT_TIME, time);
    r.put(MetaFields.COMMIT_SEQNO, time + "_0_" + seq);
    r.put(MetaFields.RECORD_KEY, row.key());
    r.put(MetaFields.PARTITION_PATH, row.partition());
    r.put(MetaFields.FILE_NAME, fileName);
    r.put("id", row.key());
    r.put("ts", row.ts());
    r.put("name", row.name());
    return r;
  }

  Path folder(String partition) {
    return table.partitionPath(partition);
  }

  private static String relative(String partition, String name) {
    return partition.isEmpty() ? name : partition + "/" + name;
  }

  /** Names of the files in a partition folder (data files only), sorted. */
  List<String> dataFileNames(String partition) {
    return FileSystemViewLoader.listDataFiles(table, partition).stream().map(s -> s.getPath().getName()).sorted().toList();
  }

  /**
   * The snapshot at the latest completed instant: per key, the record a Hudi reader returns
   * (base merged with the logs of the latest merged slice), as {@code "name@ts commit=<time>"}.
   */
  Map<String, String> snapshot() {
    Timeline timeline = timeline();
    FileSystemView view = FileSystemViewLoader.load(table, timeline);
    String q = view.defaultQueryInstant().orElseThrow();
    PayloadMergeRule rule = PayloadMergeRule.forPayloadClass(table.config().payloadClass());
    Map<String, String> out = new TreeMap<>();
    for (FileSlice slice : view.latestMergedSlices(q)) {
      try (MergedLogRecords logs = SliceLogScanner.builder(table.fs())
          .logFiles(slice.logFiles().stream().map(LogFile::path).toList())
          .readerSchema(SCHEMA_WITH_META).latestInstantTime(q).committed(InstantCommittedPredicate.of(timeline))
          .orderingField("ts").mergeRule(rule).build().scan()) {
        var seen = new java.util.HashSet<String>();
        if (slice.baseFile().isPresent()) {
          for (GenericRecord base : readBase(slice.baseFile().get().path())) {
            String key = base.get(MetaFields.RECORD_KEY).toString();
            Optional<LogEntry> entry = logs.get(key);
            seen.add(key);
            Optional<GenericRecord> result = entry.isEmpty() ? Optional.of(base)
                : rule.combineWithBase(key, base,
                    entry.get() instanceof LogEntry.Upsert u ? u.record() : null, "ts");
            result.ifPresent(r -> out.put(key, describe(r)));
          }
        }
        for (LogEntry entry : logs) {
          if (!seen.contains(entry.recordKey()) && !entry.isDelete()) {
            out.put(entry.recordKey(), describe(((LogEntry.Upsert) entry).record()));
          }
        }
      }
    }
    return out;
  }

  static String describe(GenericRecord r) {
    return r.get("name") + "@" + r.get("ts") + " commit=" + r.get(MetaFields.COMMIT_TIME);
  }

  List<GenericRecord> readBase(Path path) {
    var records = new ArrayList<GenericRecord>();
    try (CloseableIterator<GenericRecord> it = BaseFileReader.open(table.fs().getConf(), path).records(SCHEMA_WITH_META)) {
      it.forEachRemaining(records::add);
    }
    return records;
  }
}
