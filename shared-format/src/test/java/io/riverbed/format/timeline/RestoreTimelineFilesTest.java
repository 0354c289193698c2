package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** {@code T.restore.requested} and {@code T.restore}: Hudi 0.15's records, byte codec and schemas. */
class RestoreTimelineFilesTest {

  private static Schema writerSchema(byte[] bytes) throws IOException {
    try (var reader = new DataFileReader<GenericRecord>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
      return reader.getSchema();
    }
  }

  private static RollbackMetadata rollback(String time, String target) {
    var partition = new RollbackPartitionMetadata("p", List.of("file:/t/p/a_0-1-0_" + target + ".parquet"), List.of(),
        Map.of("file:/t/p/.b_1.log.2_1-0-1", 120L), Map.of("file:/t/p/.b_1.log.1_0-1-0", 300L));
    return new RollbackMetadata(time, 5, 1, List.of(target), Map.of("p", partition), RollbackMetadata.LATEST_VERSION,
        List.of(new InstantInfo(target, "deltacommit")));
  }

  @Test
  void restorePlanRoundTripsAsHudisVersionTwoPlan() throws IOException {
    var plan = RestorePlan.of(List.of(new InstantInfo("20240101000000004", "deltacommit"),
        new InstantInfo("20240101000000003", "compaction")), "20240101000000002");
    byte[] bytes = plan.toBytes();

    assertThat(RestorePlan.fromBytes(bytes, "t.restore.requested")).isEqualTo(plan);
    assertThat(plan.version()).isEqualTo(2);
    assertThat(writerSchema(bytes).getFullName()).isEqualTo("org.apache.hudi.avro.model.HoodieRestorePlan");
    assertThat(TimelineSchemas.RESTORE_PLAN.getFields()).extracting(Schema.Field::name)
        .containsExactly("instantsToRollback", "version", "savepointToRestoreTimestamp");
  }

  @Test
  void restoreMetadataRoundTripsWithEachInstantsRollbackNested() throws IOException {
    var metadata = new RestoreMetadata("20240101000000009", 42, List.of("20240101000000004", "20240101000000003"),
        Map.of("20240101000000004", List.of(rollback("20240101000000010", "20240101000000004")),
            "20240101000000003", List.of(rollback("20240101000000011", "20240101000000003"))),
        RestoreMetadata.LATEST_VERSION, List.of(new InstantInfo("20240101000000004", "deltacommit"),
            new InstantInfo("20240101000000003", "commit")));
    byte[] bytes = metadata.toBytes();

    assertThat(RestoreMetadata.fromBytes(bytes, "t.restore")).isEqualTo(metadata);
    assertThat(metadata.totalFilesDeleted()).isEqualTo(2);
    assertThat(writerSchema(bytes).getFullName()).isEqualTo("org.apache.hudi.avro.model.HoodieRestoreMetadata");
    assertThat(TimelineSchemas.RESTORE_METADATA.getFields()).extracting(Schema.Field::name).containsExactly(
        "startRestoreTime", "timeTakenInMillis", "instantsToRollback", "hoodieRestoreMetadata", "version",
        "restoreInstantInfo");
  }
}
