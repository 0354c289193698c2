package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.BaseFileWriter;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.timeline.WriteStat;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hudi's 0.15 COW table plus an insert_overwrite (a replacecommit) of its paris partition: the
 * replaced file group disappears from snapshot reads from that instant on, stays in time travel
 * before it, and an incremental read after the first commit sees only the new file.
 */
class InsertOverwriteReadTest {
  static final String FIRST = "20261129140402147";
  static final String OVERWRITE = "20261129150000000";
  static final String PARIS = "region=europe/country=france/city=paris";
  static final String NEW_FILE_ID = "0b0b0b0b-1111-2222-3333-444444444444-0";
  static SparkSession spark;
  static String path;

  @BeforeAll
  static void overwriteParis() throws Exception {
    spark = SparkTestSession.get();
    path = GoldenTables.freshCopy("cow_small", "cow_insert_overwrite");
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    Table table = Table.open(fs, new Path(path));
    Schema schema = QueryPlanner.plan(table, QuerySpec.snapshot()).schema().orElseThrow();
    Path parisFolder = new Path(table.basePath(), PARIS);
    FileStatus old = null;
    for (FileStatus f : fs.listStatus(parisFolder)) {
      if (f.getPath().getName().endsWith(".parquet")) {
        old = f;
      }
    }
    String oldFileId = old.getPath().getName().substring(0, old.getPath().getName().indexOf('_'));
    String fileName = NEW_FILE_ID + "_0-1-1_" + OVERWRITE + ".parquet";
    List<GenericRecord> rows = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = BaseFileReader.open(fs.getConf(), old.getPath()).records(schema)) {
      int seq = 0;
      while (it.hasNext()) {
        GenericRecord r = new GenericData.Record((GenericData.Record) it.next(), true);
        r.put("fare", (Double) r.get("fare") + 100);
        r.put("_hoodie_commit_time", OVERWRITE);
        r.put("_hoodie_commit_seqno", OVERWRITE + "_0_" + seq++);
        r.put("_hoodie_file_name", fileName);
        rows.add(r);
      }
    }
    Path newFile = new Path(parisFolder, fileName);
    BaseFileWriter.Result written;
    try (BaseFileWriter writer = BaseFileWriter.create(fs.getConf(), newFile, schema, BaseFileOptions.defaults())) {
      for (GenericRecord r : rows) {
        writer.write(r);
      }
      written = writer.finish();
    }
    TimelineStore store = TimelineStore.at(fs, table.metaPath());
    CommitMetadata metadata = CommitMetadata.builder(WriteOperationType.INSERT_OVERWRITE).replace()
        .addReplacedFileId(PARIS, oldFileId)
        .addWriteStat(WriteStat.builder().fileId(NEW_FILE_ID).path(PARIS + "/" + fileName).prevCommit(WriteStat.NULL_COMMIT)
            .partitionPath(PARIS).numWrites(rows.size()).numInserts(rows.size())
            .fileSizeInBytes(written.fileSizeBytes()).totalWriteBytes(written.fileSizeBytes()).build())
        .schema(TableSchemas.removeMetaFields(schema).toString())
        .build();
    store.complete(store.transitionToInflight(store.createRequested(OVERWRITE, Action.REPLACE_COMMIT, new byte[0]), new byte[0]),
        metadata.toJsonBytes());
  }

  static List<String> golden() {
    return GoldenTables.expected("cow_small", "snapshot.jsonl");
  }

  static List<String> overwritten() {
    return golden().stream().map(l -> {
      if (!l.contains(PARIS)) {
        return l;
      }
      double fare = Double.parseDouble(l.replaceAll(".*\"fare\":([0-9.]+).*", "$1"));
      return l.replaceAll("\"fare\":[0-9.]+", "\"fare\":" + (fare + 100))
          .replaceAll("\"_hoodie_commit_time\":\"\\d+\"", "\"_hoodie_commit_time\":\"" + OVERWRITE + "\"")
          .replaceAll("\"_hoodie_file_name\":\"[^\"]+\"", "\"_hoodie_file_name\":\"" + NEW_FILE_ID + "_0-1-1_" + OVERWRITE + ".parquet\"");
    }).toList();
  }

  static List<String> withoutSeqno(List<String> lines) {
    return lines.stream().map(l -> l.replaceAll("\"_hoodie_commit_seqno\":\"[^\"]+\",", "")).sorted().toList();
  }

  Dataset<Row> read(String... options) {
    var reader = spark.read().format("hudi");
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    return reader.load(path);
  }

  @Test
  void snapshotReadsTheNewFileGroupInsteadOfTheReplacedOne() {
    assertThat(withoutSeqno(GoldenTables.lines(read()))).containsExactlyElementsOf(withoutSeqno(overwritten()));
    assertThat(withoutSeqno(GoldenTables.lines(read("hoodie.datasource.query.type", "read_optimized"))))
        .containsExactlyElementsOf(withoutSeqno(overwritten()));
  }

  @Test
  void timeTravelBeforeTheOverwriteStillSeesTheReplacedFileGroup() {
    assertThat(GoldenTables.lines(read("as.of.instant", FIRST))).containsExactlyElementsOf(golden());
  }

  @Test
  void incrementalAfterTheFirstCommitReadsOnlyTheOverwrittenPartition() {
    Dataset<Row> df = read("hoodie.datasource.query.type", "incremental", "hoodie.datasource.read.begin.instanttime", FIRST);
    assertThat(withoutSeqno(GoldenTables.lines(df)))
        .containsExactlyElementsOf(withoutSeqno(overwritten().stream().filter(l -> l.contains(PARIS)).toList()));
    assertThat(PushDownTest.scanOf(df).splits()).hasSize(1);
  }
}
