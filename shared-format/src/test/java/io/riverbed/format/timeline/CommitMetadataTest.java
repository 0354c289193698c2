package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommitMetadataTest {

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = CommitMetadataTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  /** The metadata Hudi 0.15.0 serialized into mor-deltacommit-hudi-0.15.json. */
  private static CommitMetadata morDeltaCommit() {
    WriteStat delta = WriteStat.builder().fileId("f1").path("p/.f1_001.log.1_0-1-1").prevCommit("001")
        .partitionPath("p").fileSizeInBytes(100).delta(1, 0, "", List.of(".f1_001.log.1_0-1-1")).build();
    WriteStat base = WriteStat.builder().fileId("f2").path("p/f2_0-1-1_002.parquet").partitionPath("p").build();
    return CommitMetadata.builder(WriteOperationType.UPSERT).addWriteStat(delta).addWriteStat(base)
        .schema("{\"type\":\"record\"}").build();
  }

  @Test
  void deltaAndBaseStatsSerializeExactlyAsHudiWritesThem() throws IOException {
    String hudi = new String(resource("mor-deltacommit-hudi-0.15.json"), StandardCharsets.UTF_8);
    assertThat(morDeltaCommit().toJson()).isEqualTo(hudi);
  }

  @Test
  void replaceMetadataSerializesExactlyAsHudiWritesIt() throws IOException {
    String hudi = new String(resource("replacecommit-hudi-0.15.json"), StandardCharsets.UTF_8);
    CommitMetadata replace = CommitMetadata.builder(WriteOperationType.INSERT_OVERWRITE)
        .addReplacedFileId("p", "f9").build();
    assertThat(replace.toJson()).isEqualTo(hudi);
    assertThat(replace.isReplace()).isTrue();
    assertThat(replace.replacedFileIds()).containsExactly(Map.entry("p", List.of("f9")));
  }

  @Test
  void hudiDeltaCommitJsonParsesToTheSameMetadata() throws IOException {
    CommitMetadata parsed = CommitMetadata.fromJson(resource("mor-deltacommit-hudi-0.15.json"), "fixture");
    assertThat(parsed).isEqualTo(morDeltaCommit());
    assertThat(parsed.writeStats()).extracting(WriteStat::isDelta).containsExactly(true, false);
    assertThat(parsed.writeStats().get(0).delta().logFiles()).containsExactly(".f1_001.log.1_0-1-1");
    assertThat(parsed.writeStats().get(1).isNewFileGroup()).isTrue();
  }

  @Test
  void handWrittenCopyOnWriteCommitParsesIgnoringUnknownProperties() throws IOException {
    CommitMetadata m = CommitMetadata.fromJson(resource("cow-upsert-commit.json"), "cow-upsert-commit.json");

    assertThat(m.operationType()).isEqualTo(WriteOperationType.UPSERT);
    assertThat(m.compacted()).isFalse();
    assertThat(m.isReplace()).isFalse();
    assertThat(m.replacedFileIds()).isEmpty();
    assertThat(m.schema()).hasValueSatisfying(s -> assertThat(s).contains("v6_trips_record"));
    assertThat(m.partitionToWriteStats()).containsOnlyKeys("10", "30");
    WriteStat updated = m.partitionToWriteStats().get("10").get(0);
    assertThat(updated.prevCommit()).isEqualTo("20240418172802262");
    assertThat(updated.numUpdateWrites()).isEqualTo(1);
    assertThat(updated.fileSizeInBytes()).isEqualTo(441352);
    assertThat(updated.runtimeStats()).isEqualTo(new WriteStat.RuntimeStats(0, 152, 0));
    assertThat(updated.fileName()).isEqualTo("97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_0-119-166_20240418172804498.parquet");
    WriteStat inserted = m.partitionToWriteStats().get("30").get(0);
    assertThat(inserted.isNewFileGroup()).isTrue();
    assertThat(inserted.isDelta()).isFalse();
    assertThat(inserted.totalLogBlocks()).isZero();
    assertThat(inserted.minEventTime()).isNull();
    assertThat(m.fileIdsByPartition()).containsEntry("30", java.util.Set.of("6db57019-98ee-480e-8eb1-fb3de48e1c24-0"));
    assertThat(m.writtenPaths()).containsExactly(
        "10/97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_0-119-166_20240418172804498.parquet",
        "30/6db57019-98ee-480e-8eb1-fb3de48e1c24-0_1-119-167_20240418172804498.parquet");
  }

  @Test
  void jsonRoundTripKeepsEveryField() {
    WriteStat stat = WriteStat.builder().fileId("id-0").path("a=1/b=2/id-0_0-1-2_003.parquet").prevCommit("002")
        .cdcStats(Map.of("a=1/b=2/cdc.log", 12L)).numWrites(5).numDeletes(1).numUpdateWrites(2).numInserts(3)
        .totalWriteBytes(1000).totalWriteErrors(0).tempPath("tmp").partitionPath("a=1/b=2").totalLogRecords(7)
        .totalLogFilesCompacted(2).totalLogSizeCompacted(300).totalUpdatedRecordsCompacted(4).totalLogBlocks(3)
        .totalCorruptLogBlock(0).totalRollbackBlocks(1).fileSizeInBytes(1001).minEventTime(10L).maxEventTime(20L)
        .runtimeStats(new WriteStat.RuntimeStats(1, 2, 3)).build();
    CommitMetadata compaction = CommitMetadata.builder(WriteOperationType.COMPACT).addWriteStat(stat)
        .schema("{}").extraMetadata("checkpoint", "k:1").build();

    CommitMetadata back = CommitMetadata.fromJson(compaction.toJsonBytes(), "test");

    assertThat(back).isEqualTo(compaction);
    assertThat(back.compacted()).isTrue();
    assertThat(back.operationType().canUpdateSchema()).isFalse();
  }

  @Test
  void emptyFileIsEmptyMetadata() {
    CommitMetadata m = CommitMetadata.fromJson(new byte[0], "x.commit.requested");
    assertThat(m).isEqualTo(CommitMetadata.empty());
    assertThat(m.operationType()).isEqualTo(WriteOperationType.UNKNOWN);
    assertThat(m.writeStats()).isEmpty();
    assertThat(m.schema()).isEmpty();
  }

  @Test
  void malformedJsonNamesTheFile() {
    assertThatThrownBy(() -> CommitMetadata.fromJson("{not json".getBytes(StandardCharsets.UTF_8), "001.commit"))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("001.commit");
  }

  @Test
  void emptySchemaIsNoSchema() {
    CommitMetadata m = CommitMetadata.builder(WriteOperationType.INSERT).schema("").build();
    assertThat(m.schema()).isEmpty();
  }

  @Test
  void operationTypesKnowWhetherTheyCanUpdateTheSchema() {
    assertThat(WriteOperationType.UPSERT.canUpdateSchema()).isTrue();
    assertThat(WriteOperationType.INSERT_OVERWRITE.canUpdateSchema()).isTrue();
    assertThat(List.of(WriteOperationType.CLUSTER, WriteOperationType.COMPACT, WriteOperationType.INDEX,
        WriteOperationType.LOG_COMPACT)).noneMatch(WriteOperationType::canUpdateSchema);
    assertThat(WriteOperationType.fromValue("bulk_insert")).contains(WriteOperationType.BULK_INSERT);
    assertThat(WriteOperationType.fromValue("logcompact")).contains(WriteOperationType.LOG_COMPACT);
  }

  @Test
  void avroRoundTripKeepsEveryFieldInHudi102sSchemas() {
    WriteStat stat = WriteStat.builder().fileId("id-0").path("a=1/b=2/id-0_0-1-2_003.parquet").prevCommit("002")
        .cdcStats(Map.of("a=1/b=2/cdc.log", 12L)).numWrites(5).numDeletes(1).numUpdateWrites(2).numInserts(3)
        .totalWriteBytes(1000).totalWriteErrors(0).tempPath("tmp").partitionPath("a=1/b=2").totalLogRecords(7)
        .totalLogFilesCompacted(2).totalLogSizeCompacted(300).totalUpdatedRecordsCompacted(4).totalLogBlocks(3)
        .totalCorruptLogBlock(0).totalRollbackBlocks(1).fileSizeInBytes(1001).minEventTime(10L).maxEventTime(20L)
        .runtimeStats(new WriteStat.RuntimeStats(1, 2, 3)).build();
    CommitMetadata compaction = CommitMetadata.builder(WriteOperationType.COMPACT).addWriteStat(stat)
        .schema("{}").extraMetadata("checkpoint", "k:1").build();
    CommitMetadata delta = morDeltaCommit();
    CommitMetadata replace = CommitMetadata.builder(WriteOperationType.INSERT_OVERWRITE).addWriteStat(stat)
        .addReplacedFileIds("p", List.of("f9", "f10")).addReplacedFileIds("q", List.of()).build();

    for (CommitMetadata m : List.of(compaction, delta, replace)) {
      byte[] avro = CommitMetadataAvro.write(m);
      assertThat(CommitMetadataAvro.isAvro(avro)).isTrue();
      assertThat(CommitMetadata.parse(avro, "test")).isEqualTo(m);
      String schemaName = AvroTimelineFile.deserializeRequired(avro, null, "test").getSchema().getName();
      assertThat(schemaName).isEqualTo(m.isReplace() ? "HoodieReplaceCommitMetadata" : "HoodieCommitMetadata");
    }
  }

  @Test
  void hudi1AvroDeltaCommitParsesWithItsWriteStatsAndSchema() throws IOException {
    CommitMetadata m = CommitMetadata.parse(resource("mor-deltacommit-hudi-1.0.2.avro"), "mor-deltacommit-hudi-1.0.2.avro");
    assertThat(m.operationType()).isEqualTo(WriteOperationType.UPSERT);
    assertThat(m.compacted()).isFalse();
    assertThat(m.partitionToWriteStats()).containsOnlyKeys("p0", "p1", "p2");
    assertThat(m.writeStats()).allSatisfy(s -> {
      assertThat(s.isDelta()).isTrue();
      assertThat(s.path()).matches("p[012]/\\.[0-9a-f-]+-0_20261207064152890\\.log\\.1_\\d+-\\d+-\\d+");
      assertThat(s.fileSizeInBytes()).isPositive();
    });
    assertThat(m.schema()).hasValueSatisfying(schema -> assertThat(schema).contains("\"price\""));
  }

  @Test
  void hudi1AvroCompactionCommitIsMarkedCompacted() throws IOException {
    CommitMetadata m = CommitMetadata.parse(resource("compaction-commit-hudi-1.0.2.avro"), "compaction-commit-hudi-1.0.2.avro");
    assertThat(m.compacted()).isTrue();
    assertThat(m.operationType()).isEqualTo(WriteOperationType.COMPACT);
    assertThat(m.writeStats()).isNotEmpty().allSatisfy(s -> assertThat(s.path()).endsWith("_20261207064156597.parquet"));
  }

  @Test
  void damagedAvroCommitMetadataFailsNamingTheFile() throws IOException {
    byte[] bytes = resource("mor-deltacommit-hudi-1.0.2.avro");
    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length / 2);
    assertThatThrownBy(() -> CommitMetadata.parse(cut, "x_y.deltacommit"))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("x_y.deltacommit");
  }
}
