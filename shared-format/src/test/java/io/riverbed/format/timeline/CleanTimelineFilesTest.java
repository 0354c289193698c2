package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class CleanTimelineFilesTest {

  private static CleanerPlan plan() {
    return CleanerPlan.of(new ActionInstant("20240101000000002", "commit", "COMPLETED"), "20240101000000005",
        "KEEP_LATEST_COMMITS", Map.of("dt=2024-01-01", List.of(CleanFileInfo.of("file:/t/dt=2024-01-01/a_0-1-0_1.parquet"))),
        Map.of(CleanerPlan.SAVEPOINTED_TIMESTAMPS, "20240101000000001"));
  }

  private static Schema writerSchema(byte[] bytes) throws IOException {
    try (var reader = new DataFileReader<GenericRecord>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
      return reader.getSchema();
    }
  }

  @Test
  void cleanerPlanRoundTripsAsHudiVersion2() throws IOException {
    CleanerPlan plan = plan();
    byte[] bytes = plan.toBytes();
    assertThat(CleanerPlan.fromBytes(bytes, "t.clean.requested")).isEqualTo(plan);
    assertThat(writerSchema(bytes).getFullName()).isEqualTo("org.apache.hudi.avro.model.HoodieCleanerPlan");
    assertThat(plan.version()).isEqualTo(2);
    assertThat(plan.filesToBeDeletedPerPartition()).isEmpty();
    assertThat(plan.fileCount()).isEqualTo(1);
  }

  @Test
  void versionOnePlansNameFilesInTheirPartitionFolder() {
    var r = new GenericData.Record(TimelineSchemas.CLEANER_PLAN);
    r.put("policy", "KEEP_LATEST_COMMITS");
    r.put("lastCompletedCommitTimestamp", "");
    r.put("version", 1);
    r.put("filesToBeDeletedPerPartition", Map.of("p", List.of("a_0-1-0_1.parquet"), "", List.of("b_0-1-0_1.parquet")));
    CleanerPlan v1 = CleanerPlan.fromBytes(AvroTimelineFile.serialize(r), "v1");
    assertThat(v1.earliestInstantToRetain()).isNull();
    assertThat(v1.filesToDelete(new Path("file:/t"))).containsOnly(
        Map.entry("p", List.of(CleanFileInfo.of("file:/t/p/a_0-1-0_1.parquet"))),
        Map.entry("", List.of(CleanFileInfo.of("file:/t/b_0-1-0_1.parquet"))));
    assertThat(v1.fileCount()).isEqualTo(2);
  }

  @Test
  void cleanMetadataRoundTrips() throws IOException {
    var partition = new CleanPartitionMetadata("p", "KEEP_LATEST_COMMITS", List.of("a.parquet", "b.parquet"),
        List.of("a.parquet"), List.of("b.parquet"), false);
    var metadata = new CleanMetadata("20240101000000009", 12, 1, "20240101000000002", "20240101000000005",
        Map.of("p", partition), CleanMetadata.LATEST_VERSION, Map.of(), Map.of());
    byte[] bytes = metadata.toBytes();
    assertThat(CleanMetadata.fromBytes(bytes, "t.clean")).isEqualTo(metadata);
    assertThat(writerSchema(bytes).getFullName()).isEqualTo("org.apache.hudi.avro.model.HoodieCleanMetadata");
  }

  @Test
  void savepointMetadataRoundTrips() {
    var savepoint = new SavepointMetadata("me", 1700000000L, "keep", Map.of("p", List.of("a.parquet")),
        SavepointMetadata.LATEST_VERSION);
    assertThat(SavepointMetadata.fromBytes(savepoint.toBytes(), "t.savepoint")).isEqualTo(savepoint);
    assertThat(TimelineSchemas.SAVEPOINT_METADATA.getFields()).extracting(Schema.Field::name)
        .containsExactly("savepointedBy", "savepointedAt", "comments", "partitionMetadata", "version");
  }
}
