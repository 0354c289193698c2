package io.riverbed.format.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.timeline.Action;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hudi 1.x's LSM history at the byte level: manifest JSON and {@code _version_} as Hudi's
 * {@code HoodieLSMTimelineManifest}/{@code LSMTimelineWriter} write them, file names, the Parquet
 * schema of {@code HoodieLSMTimelineInstant}, layer compaction with Hudi's candidate rules, the
 * cleaning of old versions, and the crash points of each step.
 */
class LsmHistoryTest {
  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private LsmHistory history;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration());
    history = LsmHistory.at(fs, new Path(dir.toUri().toString(), "history"));
  }

  private static List<GenericRecord> rows(int from, int to) {
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      String t = String.format("202401010000%05d", i);
      rows.add(new LsmInstantRow(t, t + "1", Action.DELTA_COMMIT, new byte[] {'O', 'b', 'j', 1}, null).toRecord());
    }
    return rows;
  }

  private static String time(int i) {
    return String.format("202401010000%05d", i);
  }

  private TreeSet<String> files() throws Exception {
    TreeSet<String> names = new TreeSet<>();
    for (FileStatus st : fs.listStatus(history.folder())) {
      if (!st.getPath().getName().startsWith(".")) {
        names.add(st.getPath().getName());
      }
    }
    return names;
  }

  private String text(String name) throws Exception {
    try (var in = fs.open(history.pathOf(name))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void manifestIsJacksonsPrettyPrintedJsonAsHudiWritesIt() {
    var manifest = new LsmManifest(List.of(new LsmManifest.FileEntry("1_2_0.parquet", 10),
        new LsmManifest.FileEntry("3_4_0.parquet", 20)));
    assertThat(new String(manifest.toBytes(), StandardCharsets.UTF_8)).isEqualTo("""
        {
          "files" : [ {
            "fileName" : "1_2_0.parquet",
            "fileLen" : 10
          }, {
            "fileName" : "3_4_0.parquet",
            "fileLen" : 20
          } ]
        }""");
    assertThat(new String(LsmManifest.empty().toBytes(), StandardCharsets.UTF_8)).isEqualTo("{\n  \"files\" : [ ]\n}");
    assertThat(LsmManifest.fromBytes(manifest.toBytes(), "m")).isEqualTo(manifest);
    assertThat(LsmManifest.fromBytes("{\"files\":[{\"fileName\":\"1_2_0.parquet\",\"fileLen\":3,\"more\":1}],\"x\":2}"
        .getBytes(StandardCharsets.UTF_8), "m").fileNames()).containsExactly("1_2_0.parquet");
    assertThat(LsmManifest.fromBytes(new byte[0], "m")).isEqualTo(LsmManifest.empty());
  }

  @Test
  void fileNamesParseAsHudisLsmTimelineDoes() {
    assertThat(LsmFileName.parse("20240101000000001_20240101000000009_0.parquet"))
        .contains(new LsmFileName("20240101000000001", "20240101000000009", 0));
    assertThat(LsmFileName.parse("1_2_1.parquet")).contains(new LsmFileName("1", "2", 1));
    assertThat(LsmFileName.parse("manifest_3")).isEmpty();
    assertThat(LsmFileName.parse("1_2_0.parquet.crc")).isEmpty();
    assertThat(LsmFileName.manifestVersion("manifest_12")).contains(12);
    assertThat(LsmFileName.manifestVersion("_version_")).isEmpty();
    assertThat(LsmFileName.compactionOf(List.of(new LsmFileName("3", "4", 0), new LsmFileName("1", "2", 0))))
        .isEqualTo(new LsmFileName("1", "4", 1));
  }

  @Test
  void writeAddsALayerZeroFileAManifestAndTheVersionFile() throws Exception {
    String name = LsmHistoryWriter.of(history).write(rows(1, 3));

    assertThat(name).isEqualTo(time(1) + "_" + time(3) + "_0.parquet");
    assertThat(files()).containsExactly(name, "_version_", "manifest_1");
    assertThat(text("_version_")).isEqualTo("1");
    assertThat(history.latestManifest().files())
        .containsExactly(new LsmManifest.FileEntry(name, fs.getFileStatus(history.pathOf(name)).getLen()));
    assertThat(history.readAll()).extracting(r -> r.get("instantTime").toString())
        .containsExactly(time(1), time(2), time(3));
    GenericRecord row = history.readAll().get(0);
    assertThat(row.get("action").toString()).isEqualTo("deltacommit");
    assertThat(row.get("completionTime").toString()).isEqualTo(time(1) + "1");
    assertThat(row.get("version")).isEqualTo(1);
    assertThat(row.get("plan")).isNull();
  }

  @Test
  void dataFilesHaveTheParquetSchemaHudiWritesForHoodieLsmTimelineInstant() throws Exception {
    String name = LsmHistoryWriter.of(history).write(rows(1, 1));
    try (var reader = ParquetFileReader.open(HadoopInputFile.fromPath(history.pathOf(name), fs.getConf()))) {
      var footer = reader.getFooter().getFileMetaData();
      assertThat(footer.getSchema().toString()).isEqualToIgnoringWhitespace("""
          message org.apache.hudi.avro.model.HoodieLSMTimelineInstant {
            optional binary instantTime (STRING);
            optional binary completionTime (STRING);
            optional binary action (STRING);
            optional binary metadata;
            optional binary plan;
            required int32 version;
          }""");
      assertThat(new org.apache.avro.Schema.Parser().parse(footer.getKeyValueMetaData().get("parquet.avro.schema")))
          .isEqualTo(io.riverbed.format.timeline.TimelineSchemas.LSM_TIMELINE_INSTANT);
    }
  }

  @Test
  void versionFallsBackToTheHighestManifestWhenTheVersionFileIsMissingOrUnreadable() throws Exception {
    var writer = LsmHistoryWriter.of(history);
    writer.write(rows(1, 2));
    writer.write(rows(3, 4));
    fs.delete(history.pathOf("_version_"), false);
    assertThat(history.latestVersion()).isEqualTo(2);
    try (var out = fs.create(history.pathOf("_version_"), true)) {
      out.write("x".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(history.latestVersion()).isEqualTo(2);
    assertThat(LsmHistory.at(fs, new Path(dir.toUri().toString(), "none")).latestVersion()).isEqualTo(-1);
  }

  @Test
  void aLayerWithBatchSizeFilesIsCompactedIntoTheNextLayerAndOldVersionsAreCleaned() throws Exception {
    var writer = LsmHistoryWriter.of(history);
    for (int b = 0; b < 3; b++) {
      writer.write(rows(b * 2 + 1, b * 2 + 2));
      assertThat(writer.compactAndClean(4)).as("fewer than four files in layer 0").isEmpty();
    }
    writer.write(rows(7, 8));
    List<String> compacted = writer.compactAndClean(4);

    String layerOne = time(1) + "_" + time(8) + "_1.parquet";
    assertThat(compacted).containsExactly(layerOne);
    assertThat(history.latestVersion()).isEqualTo(5);
    assertThat(history.latestManifest().fileNames()).containsExactly(layerOne);
    assertThat(history.readAll()).hasSize(8);
    assertThat(history.versions()).as("3 + 1 kept per compaction").containsExactlyInAnyOrder(2, 3, 4, 5);
    assertThat(files()).contains(time(1) + "_" + time(2) + "_0.parquet").doesNotContain("manifest_1");

    for (int b = 4; b < 8; b++) {
      writer.write(rows(b * 2 + 1, b * 2 + 2));
      writer.compactAndClean(4);
    }
    assertThat(history.latestManifest().fileNames()).containsExactly(layerOne, time(9) + "_" + time(16) + "_1.parquet");
    assertThat(history.readAll()).hasSize(16);
    assertThat(files()).as("layer-0 files of the first compaction are named by no kept version")
        .doesNotContain(time(1) + "_" + time(2) + "_0.parquet");
  }

  @Test
  void compactionCascadesThroughLayers() throws Exception {
    var writer = LsmHistoryWriter.of(history);
    for (int b = 0; b < 4; b++) {
      writer.write(rows(b * 2 + 1, b * 2 + 2));
      writer.compactAndClean(2);
    }
    assertThat(history.latestManifest().fileNames()).containsExactly(time(1) + "_" + time(8) + "_2.parquet");
    assertThat(history.readAll()).extracting(r -> r.get("instantTime").toString()).hasSize(8).doesNotHaveDuplicates();
  }

  @Test
  void aCrashAtAnyStepOfAWriteIsReadAsBeforeOrAfterAndARerunFinishes() throws Exception {
    for (String step : List.of(LsmHistoryWriter.FILE_WRITTEN, LsmHistoryWriter.MANIFEST_WRITTEN)) {
      var h = LsmHistory.at(fs, new Path(dir.toUri().toString(), "crash-" + step.replace('.', '-')));
      LsmHistoryWriter.of(h).write(rows(1, 2));
      assertThatThrownBy(() -> LsmHistoryWriter.of(h).checkpoints(s -> {
        if (s.equals(step)) {
          throw new IllegalStateException("crash at " + s);
        }
      }).write(rows(3, 4))).hasMessage("crash at " + step);
      assertThat(h.readAll()).as("the crashed write is not visible: " + step).hasSize(2);

      LsmHistoryWriter.of(h).write(rows(3, 4));
      assertThat(h.readAll()).as(step).extracting(r -> r.get("instantTime").toString())
          .containsExactly(time(1), time(2), time(3), time(4));
      assertThat(h.latestVersion()).isEqualTo(2);
      LsmHistoryWriter.of(h).write(rows(3, 4));
      assertThat(h.latestVersion()).as("a committed file is not added twice").isEqualTo(2);
    }
  }

  @Test
  void aCrashDuringACompactionLeavesTheSourcesReadAndARerunCompacts() throws Exception {
    for (String step : List.of(LsmHistoryWriter.COMPACTED_FILE_WRITTEN, LsmHistoryWriter.COMPACTION_COMMITTED)) {
      var h = LsmHistory.at(fs, new Path(dir.toUri().toString(), "compact-" + step.replace('.', '-')));
      var writer = LsmHistoryWriter.of(h);
      writer.write(rows(1, 2));
      writer.write(rows(3, 4));
      assertThatThrownBy(() -> LsmHistoryWriter.of(h).checkpoints(s -> {
        if (s.equals(step)) {
          throw new IllegalStateException("crash");
        }
      }).compactAndClean(2)).hasMessage("crash");
      assertThat(h.readAll()).as(step).hasSize(4);

      LsmHistoryWriter.of(h).compactAndClean(2);
      assertThat(h.latestManifest().fileNames()).containsExactly(time(1) + "_" + time(4) + "_1.parquet");
      assertThat(h.readAll()).hasSize(4);
    }
  }
}
