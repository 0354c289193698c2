package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class AvroTimelineFileTest {

  private static CompactionPlan plan() {
    return new CompactionPlan(List.of(
        CompactionOperation.of("dt=2024-01-01", "fg-1", "20240101000000000",
            "fg-1_0-1-1_20240101000000000.parquet", List.of(".fg-1_20240101000000000.log.1_0-1-1")),
        new CompactionOperation("20240101000000001", List.of(".fg-2_20240101000000001.log.1_0-1-1"), null,
            "fg-2", "dt=2024-01-02", Map.of("TOTAL_LOG_FILES", 1.0), null)),
        Map.of("origin", "riverbed"), CompactionPlan.LATEST_VERSION, false);
  }

  @Test
  void compactionPlanRoundTrips() {
    CompactionPlan plan = plan();
    assertThat(CompactionPlan.fromBytes(plan.toBytes(), "t.compaction.requested")).isEqualTo(plan);
    assertThat(plan.operations().get(1).dataFile()).isEmpty();
  }

  @Test
  void aCompactionOperationRoundTripsAlone() {
    for (CompactionOperation operation : plan().operations()) {
      assertThat(CompactionOperation.fromBytes(operation.toBytes(), "an operation")).isEqualTo(operation);
    }
    assertThatThrownBy(() -> CompactionOperation.fromBytes(new byte[] {1, 2, 3}, "event of task 4"))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("event of task 4");
  }

  @Test
  void containerHasNullCodecOneRecordAndHudiSchemaName() throws IOException {
    byte[] bytes = plan().toBytes();
    assertThat(new String(bytes, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1)).isEqualTo("Obj\u0001");
    try (var reader = new DataFileReader<GenericRecord>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
      String codec = reader.getMetaString(DataFileConstants.CODEC);
      assertThat(codec == null || codec.equals(DataFileConstants.NULL_CODEC)).as("codec " + codec).isTrue();
      Schema written = reader.getSchema();
      assertThat(written.getFullName()).isEqualTo("org.apache.hudi.avro.model.HoodieCompactionPlan");
      assertThat(written.getFields()).extracting(Schema.Field::name)
          .containsExactly("operations", "extraMetadata", "version", "strategy", "preserveHoodieMetadata");
      int count = 0;
      while (reader.hasNext()) {
        reader.next();
        count++;
      }
      assertThat(count).isEqualTo(1);
    }
  }

  @Test
  void schemasKeepHudiFieldOrderAndDefaults() {
    assertThat(TimelineSchemas.COMPACTION_OPERATION.getFields()).extracting(Schema.Field::name).containsExactly(
        "baseInstantTime", "deltaFilePaths", "dataFilePath", "fileId", "partitionPath", "metrics", "bootstrapFilePath");
    assertThat(TimelineSchemas.COMPACTION_PLAN.getField("version").defaultVal()).isEqualTo(1);
    assertThat(TimelineSchemas.COMPACTION_PLAN.getField("preserveHoodieMetadata").defaultVal()).isEqualTo(false);
    assertThat(TimelineSchemas.ROLLBACK_PLAN.getFields()).extracting(Schema.Field::name)
        .containsExactly("instantToRollback", "RollbackRequests", "version");
    assertThat(TimelineSchemas.ROLLBACK_METADATA.getFields()).extracting(Schema.Field::name).containsExactly(
        "startRollbackTime", "timeTakenInMillis", "totalFilesDeleted", "commitsRollback", "partitionMetadata",
        "version", "instantsRollback");
    assertThat(TimelineSchemas.CLEANER_PLAN.getFields()).extracting(Schema.Field::name).containsExactly(
        "earliestInstantToRetain", "lastCompletedCommitTimestamp", "policy", "filesToBeDeletedPerPartition",
        "version", "filePathsToBeDeletedPerPartition", "partitionsToBeDeleted", "extraMetadata");
    assertThat(TimelineSchemas.CLEAN_METADATA.getFields()).extracting(Schema.Field::name).containsExactly(
        "startCleanTime", "timeTakenInMillis", "totalFilesDeleted", "earliestCommitToRetain",
        "lastCompletedCommitTimestamp", "partitionMetadata", "version", "bootstrapPartitionMetadata", "extraMetadata");
    assertThat(TimelineSchemas.REQUESTED_REPLACE_METADATA.getFields()).extracting(Schema.Field::name)
        .containsExactly("operationType", "clusteringPlan", "extraMetadata", "version");
    for (Schema s : List.of(TimelineSchemas.COMPACTION_PLAN, TimelineSchemas.ROLLBACK_PLAN,
        TimelineSchemas.ROLLBACK_METADATA, TimelineSchemas.CLEANER_PLAN, TimelineSchemas.CLEAN_METADATA,
        TimelineSchemas.REQUESTED_REPLACE_METADATA)) {
      assertThat(s.getNamespace()).isEqualTo("org.apache.hudi.avro.model");
    }
  }

  @Test
  void rollbackPlanRoundTrips() {
    RollbackPlan plan = RollbackPlan.of(new InstantInfo("20240101000000005", "deltacommit"), List.of(
        new RollbackRequest("dt=1", "fg-1", "20240101000000000",
            List.of("file:/t/dt=1/fg-1_0-1-1_20240101000000005.parquet"), null),
        new RollbackRequest("dt=2", "fg-2", "20240101000000000", List.of(),
            Map.of("file:/t/dt=2/.fg-2_20240101000000000.log.1_0-1-1", 4096L))));
    byte[] bytes = plan.toBytes();
    assertThat(RollbackPlan.fromBytes(bytes, "r.rollback.requested")).isEqualTo(plan);
  }

  @Test
  void rollbackMetadataRoundTrips() {
    RollbackMetadata metadata = new RollbackMetadata("20240101000000009", 12, 1, List.of("20240101000000005"),
        Map.of("dt=1", new RollbackPartitionMetadata("dt=1", List.of("file:/t/dt=1/a.parquet"), List.of(),
            Map.of("file:/t/dt=1/.fg_1.log.2_1-0-1", 120L), Map.of())),
        RollbackMetadata.LATEST_VERSION, List.of(new InstantInfo("20240101000000005", "deltacommit")));
    assertThat(RollbackMetadata.fromBytes(metadata.toBytes(), "r.rollback")).isEqualTo(metadata);
  }

  @Test
  void cleanerPlanAndCleanMetadataRoundTripAsGenericRecords() {
    var plan = new GenericData.Record(TimelineSchemas.CLEANER_PLAN);
    var earliest = new GenericData.Record(TimelineSchemas.fieldSchema(TimelineSchemas.CLEANER_PLAN, "earliestInstantToRetain"));
    earliest.put("timestamp", "20240101000000000");
    earliest.put("action", "commit");
    earliest.put("state", "COMPLETED");
    plan.put("earliestInstantToRetain", earliest);
    plan.put("lastCompletedCommitTimestamp", "20240102000000000");
    plan.put("policy", "KEEP_LATEST_COMMITS");
    plan.put("version", 2);
    byte[] bytes = AvroTimelineFile.serialize(plan);
    GenericRecord back = AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.CLEANER_PLAN, "c.clean.requested");
    assertThat(back.get("policy").toString()).isEqualTo("KEEP_LATEST_COMMITS");
    assertThat(((GenericRecord) back.get("earliestInstantToRetain")).get("timestamp").toString())
        .isEqualTo("20240101000000000");

    var partition = new GenericData.Record(TimelineSchemas.CLEAN_METADATA.getField("partitionMetadata").schema().getValueType());
    partition.put("partitionPath", "dt=1");
    partition.put("policy", "KEEP_LATEST_COMMITS");
    partition.put("deletePathPatterns", List.of("a.parquet"));
    partition.put("successDeleteFiles", List.of("a.parquet"));
    partition.put("failedDeleteFiles", List.of());
    var clean = new GenericData.Record(TimelineSchemas.CLEAN_METADATA);
    clean.put("startCleanTime", "20240103000000000");
    clean.put("timeTakenInMillis", 5L);
    clean.put("totalFilesDeleted", 1);
    clean.put("earliestCommitToRetain", "20240101000000000");
    clean.put("lastCompletedCommitTimestamp", "20240102000000000");
    clean.put("partitionMetadata", Map.of("dt=1", partition));
    clean.put("version", 2);
    GenericRecord cleanBack = AvroTimelineFile.deserializeRequired(
        AvroTimelineFile.serialize(clean), TimelineSchemas.CLEAN_METADATA, "c.clean");
    assertThat(cleanBack.get("totalFilesDeleted")).isEqualTo(1);
  }

  @Test
  void emptyRequestedReplaceFileIsNoRecordAndAllNullRecordRoundTrips() {
    assertThat(AvroTimelineFile.deserialize(new byte[0], TimelineSchemas.REQUESTED_REPLACE_METADATA, "x")).isEmpty();
    var allNull = new GenericData.Record(TimelineSchemas.REQUESTED_REPLACE_METADATA);
    allNull.put("version", 1);
    GenericRecord back = AvroTimelineFile.deserialize(AvroTimelineFile.serialize(allNull),
        TimelineSchemas.REQUESTED_REPLACE_METADATA, "x.replacecommit.requested").orElseThrow();
    assertThat(back.get("clusteringPlan")).isNull();
    assertThat(back.get("operationType")).isNull();
  }

  @Test
  void emptyCompactionPlanFileIsAnErrorNamingTheFile() {
    assertThatThrownBy(() -> CompactionPlan.fromBytes(new byte[0], "001.compaction.requested"))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("001.compaction.requested");
    assertThatThrownBy(() -> CompactionPlan.fromBytes(new byte[] {1, 2, 3}, "002.compaction.requested"))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("002.compaction.requested");
  }
}
