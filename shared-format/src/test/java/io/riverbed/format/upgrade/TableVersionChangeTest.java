package io.riverbed.format.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.archive.ArchivedTimeline;
import io.riverbed.format.archive.LegacyArchiveConversion;
import io.riverbed.format.history.LsmHistory;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upgrading a version 6 table to 8 and downgrading it back, as Hudi's handlers do: the timeline
 * moved and renamed, commit metadata re-encoded, the keys of hoodie.properties, the logs of the
 * latest slices compacted; the rows stay, and writers go on in the table's new version.
 */
class TableVersionChangeTest {
  private static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id").optionalString("name").requiredLong("ts").requiredString("dt").endRecord();

  @TempDir java.nio.file.Path dir;

  private Table create(TableType type) throws IOException {
    TableConfig config = TableConfig.builder("orders").type(type)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass("org.apache.hudi.common.model.DefaultHoodieRecordPayload")
        .keyGeneratorClass("org.apache.hudi.keygen.SimpleKeyGenerator")
        .createSchema(SCHEMA.toString()).build();
    return Table.create(FileSystem.getLocal(new Configuration()), new Path(dir.toUri().toString(), "orders"), config);
  }

  private static String write(Table table, int round, String... ids) {
    var records = new java.util.ArrayList<WriteRecord>();
    for (String id : ids) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", id);
      r.put("name", "r" + round);
      r.put("ts", (long) round);
      r.put("dt", "2024-01-01");
      records.add(RecordKeyer.forTable(table.config()).toWriteRecord(r));
    }
    return new SingleTaskEngine(table, SCHEMA, WriteOptions.defaults()).write(WriteOperationType.UPSERT, records, Map.of());
  }

  private static Map<String, String> rows(Table table) {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table, QuerySpec.snapshot())) {
      out.put(r.get(MetaFields.RECORD_KEY).toString(), r.get("name") + "@" + r.get("ts"));
    }
    return out;
  }

  @Test
  void mergeOnReadTableGoesToVersion8AndBackWithItsRowsAndWritersGoOn() throws IOException {
    Table v6 = create(TableType.MERGE_ON_READ);
    write(v6, 1, "a", "b", "c");
    String t2 = write(v6, 2, "a");
    Map<String, String> before = rows(v6);

    var up = TableVersionChange.of(v6, 8).execute();

    assertThat(up.fromVersion()).isEqualTo(6);
    assertThat(up.compactions()).hasSize(1);
    Table v8 = Table.open(v6.fs(), v6.basePath());
    assertThat(v8.config().properties()).contains(Map.entry("hoodie.table.version", "8"),
        Map.entry("hoodie.timeline.layout.version", "2"), Map.entry("hoodie.table.initial.version", "SIX"),
        Map.entry("hoodie.record.merge.mode", "EVENT_TIME_ORDERING"), Map.entry("hoodie.table.keygenerator.type", "SIMPLE"));
    assertThat(files(v8.fs(), v8.metaPath())).noneMatch(n -> n.matches("\\d{17}.*"));
    assertThat(files(v8.fs(), v8.timelinePath())).contains(t2 + "_" + v8.refreshTimeline().completionTime(t2).orElseThrow()
        + ".deltacommit");
    byte[] commit = Files.readAllBytes(java.nio.file.Path.of(new Path(v8.timelinePath(),
        t2 + "_" + v8.timeline().completionTime(t2).orElseThrow() + ".deltacommit").toUri()));
    assertThat(new String(commit, 0, 3, StandardCharsets.ISO_8859_1)).isEqualTo("Obj");
    assertThat(v8.fs().isDirectory(new Path(v8.timelinePath(), "history"))).isTrue();
    assertThat(rows(v8)).isEqualTo(before);
    String t3 = write(v8, 3, "b", "d");
    assertThat(files(v8.fs(), v8.partitionPath("2024-01-01"))).anyMatch(n -> n.contains("_" + t3 + ".log."));
    Map<String, String> written = rows(v8);
    assertThat(written).containsEntry("b", "r3@3").containsEntry("d", "r3@3").containsEntry("a", "r2@2");

    var down = TableVersionChange.of(v8, 6).execute();

    assertThat(down.toVersion()).isEqualTo(6);
    Table back = Table.open(v8.fs(), v8.basePath());
    assertThat(back.config().properties()).contains(Map.entry("hoodie.table.version", "6"),
        Map.entry("hoodie.timeline.layout.version", "1"),
        Map.entry("hoodie.compaction.payload.class", "org.apache.hudi.common.model.DefaultHoodieRecordPayload"),
        Map.entry("hoodie.table.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator"))
        .doesNotContainKeys("hoodie.record.merge.mode", "hoodie.timeline.path", "hoodie.table.initial.version");
    assertThat(v8.fs().exists(new Path(back.metaPath(), "timeline"))).isFalse();
    assertThat(new String(Files.readAllBytes(java.nio.file.Path.of(new Path(back.metaPath(), t3 + ".deltacommit").toUri())),
        StandardCharsets.UTF_8)).startsWith("{");
    assertThat(rows(back)).isEqualTo(written);
    // the compaction of the downgrade left no log file named by a delta commit in a latest slice
    for (var slice : io.riverbed.format.file.FileSystemViewLoader.load(back, back.refreshTimeline()).latestMergedSlices(
        back.timeline().completed().last().orElseThrow().time())) {
      assertThat(slice.logFiles()).isEmpty();
    }
    write(back, 4, "c");
    assertThat(rows(back)).containsEntry("c", "r4@4").containsEntry("b", "r3@3");
    assertThat(files(back.fs(), back.partitionPath("2024-01-01")).stream()
        .filter(n -> FileNames.parseLogFileName(n).isPresent()).count()).isPositive();
  }

  @Test
  void upgradeOfATableAlreadyAtTheVersionChangesNothingAndADirectionMismatchIsNamed() throws IOException {
    Table v6 = create(TableType.COPY_ON_WRITE);
    write(v6, 1, "a");
    var same = TableVersionChange.of(v6, 6).execute();
    assertThat(same.fromVersion()).isEqualTo(same.toVersion());
    assertThatThrownBy(() -> TableVersionChange.of(v6, 7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(v6.basePath().toString());
  }

  private static ArchiveOptions keep(int min, int max) {
    return ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, Integer.toString(min),
        ArchiveOptions.MAX_COMMITS, Integer.toString(max), ArchiveOptions.COMPACTION_DELTA_COMMITS, "1"));
  }

  @Test
  void archivedTimelineIsConvertedIntoTheLsmHistoryAndBackAndArchivalGoesOnInEachVersion() throws IOException {
    Table v6 = create(TableType.MERGE_ON_READ);
    for (int round = 1; round <= 5; round++) {
      write(v6, round, "a", "b");
    }
    Archiver.of(v6).options(keep(2, 3)).execute();
    for (int round = 6; round <= 8; round++) {
      write(v6, round, "a", "c");
    }
    Archiver.of(v6).options(keep(2, 3)).execute();
    assertThat(files(v6.fs(), v6.archivePath())).containsExactly(".commits_.archive.1_1-0-1", ".commits_.archive.2_1-0-1");
    Timeline legacy = ArchivedTimeline.load(v6).timeline().completed();
    assertThat(legacy.size()).isEqualTo(6);
    Map<String, String> rows = rows(v6);
    // a crashed earlier upgrade left part of the history: the rerun adds each instant once
    LegacyArchiveConversion.toHistory(v6, new Path(v6.metaPath(), "timeline/history"));

    TableVersionChange.Result up = TableVersionChange.of(v6, 8).execute();

    Table v8 = Table.open(v6.fs(), v6.basePath());
    assertThat(up.archivedInstants()).isEqualTo(6);
    assertThat(v6.fs().exists(new Path(v6.metaPath(), "archived/.commits_.archive.1_1-0-1"))).isFalse();
    assertThat(v8.archivePath().toString()).endsWith(".hoodie/timeline/history");
    Timeline history = ArchivedTimeline.load(v8).timeline();
    assertThat(history.completed().times()).containsExactlyElementsOf(legacy.times());
    assertThat(history.completed().instants()).extracting(Instant::action)
        .containsExactlyElementsOf(legacy.instants().stream().map(Instant::action).toList());
    legacy.times().forEach(t -> assertThat(history.completionTime(t)).as(t).isPresent());
    assertThat(LsmHistory.at(v8.fs(), v8.archivePath()).readAll())
        .allSatisfy(r -> assertThat(r.get("metadata")).isNotNull());
    assertThat(rows(v8)).isEqualTo(rows);

    for (int round = 9; round <= 12; round++) {
      write(v8, round, "a", "d");
    }
    Archiver.of(v8).options(keep(2, 3)).execute();
    Timeline historyAfter = ArchivedTimeline.load(v8).timeline().completed();
    assertThat(historyAfter.size()).isGreaterThan(6);
    Map<String, String> rowsV8 = rows(v8);

    TableVersionChange.Result down = TableVersionChange.of(v8, 6).execute();

    Table back = Table.open(v6.fs(), v6.basePath());
    assertThat(down.archivedInstants()).isEqualTo(historyAfter.size());
    assertThat(back.archivePath().toString()).endsWith(".hoodie/archived");
    assertThat(files(back.fs(), back.archivePath())).containsExactly(".commits_.archive.1_1-0-1");
    assertThat(back.fs().exists(new Path(back.metaPath(), "timeline"))).isFalse();
    assertThat(ArchivedTimeline.load(back).timeline().completed().times())
        .containsExactlyElementsOf(historyAfter.times());
    assertThat(rows(back)).isEqualTo(rowsV8);
    for (int round = 13; round <= 15; round++) {
      write(back, round, "a");
    }
    assertThat(Archiver.of(back).options(keep(2, 3)).execute().archiveFile()).contains(".commits_.archive.2_1-0-1");
    assertThat(ArchivedTimeline.load(back).timeline().completed().size()).isGreaterThan(historyAfter.size());
  }

  private static TreeSet<String> files(FileSystem fs, Path folder) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    for (FileStatus st : fs.listStatus(folder)) {
      if (st.isFile()) {
        names.add(st.getPath().getName());
      }
    }
    return names;
  }
}
