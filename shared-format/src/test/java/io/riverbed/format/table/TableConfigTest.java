package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class TableConfigTest {

  private static final Path BASE = new Path("file:/data/orders");

  @Test
  void checksumMatchesValuesInTablesWrittenByHudi() {
    assertThat(TableConfig.checksumOf("default", "v6_empty")).isEqualTo(1980710965L);
    assertThat(TableConfig.checksumOf("default", "v6_nonpartitioned")).isEqualTo(1363530505L);
    assertThat(TableConfig.checksumOf("default", "v6_trips_8i3d")).isEqualTo(3180720914L);
  }

  @Test
  void checksumWithoutDatabaseUsesEmptyDatabaseName() {
    assertThat(TableConfig.checksumOf(null, "t")).isEqualTo(TableConfig.checksumOf("", "t"));
  }

  @Test
  void builderWritesVersionLayoutChecksumAndMergeOnReadKeys() {
    TableConfig config = TableConfig.builder("orders").database("default")
        .type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("order_id"))
        .partitionFields(List.of("dt"))
        .precombineField("ts")
        .keyGeneratorClass("org.apache.hudi.keygen.SimpleAvroKeyGenerator")
        .hiveStylePartitioning(true)
        .payloadClass("org.apache.hudi.common.model.DefaultHoodieRecordPayload")
        .createSchema("{\"type\":\"record\",\"name\":\"orders_record\",\"fields\":[]}")
        .build();

    assertThat(config.properties()).containsEntry("hoodie.table.version", "6")
        .containsEntry("hoodie.timeline.layout.version", "1")
        .containsEntry("hoodie.table.type", "MERGE_ON_READ")
        .containsEntry("hoodie.archivelog.folder", "archived")
        .containsEntry("hoodie.compaction.payload.class", "org.apache.hudi.common.model.DefaultHoodieRecordPayload")
        .containsEntry("hoodie.compaction.record.merger.strategy", "eeb8d96f-b1e4-49fd-bbf8-28ac514178e5")
        .containsEntry("hoodie.table.checksum", String.valueOf(TableConfig.checksumOf("default", "orders")))
        .doesNotContainKey("hoodie.table.metadata.partitions");
    assertThat(config.name()).isEqualTo("orders");
    assertThat(config.database()).contains("default");
    assertThat(config.type()).isEqualTo(TableType.MERGE_ON_READ);
    assertThat(config.version()).isEqualTo(6);
    assertThat(config.timelineLayoutVersion()).isEqualTo(1);
    assertThat(config.recordKeyFields()).containsExactly("order_id");
    assertThat(config.partitionFields()).containsExactly("dt");
    assertThat(config.precombineField()).contains("ts");
    assertThat(config.keyGeneratorClass()).contains("org.apache.hudi.keygen.SimpleAvroKeyGenerator");
    assertThat(config.hiveStylePartitioning()).isTrue();
    assertThat(config.urlEncodePartitioning()).isFalse();
    assertThat(config.dropPartitionColumns()).isFalse();
    assertThat(config.createSchema()).hasValueSatisfying(s -> assertThat(s).startsWith("{\"type\""));
    assertThat(config.baseFileFormat()).isEqualTo("PARQUET");
    assertThat(config.populateMetaFields()).isTrue();
    assertThat(config.hasValidChecksum()).isTrue();
  }

  @Test
  void copyOnWriteBuilderLeavesPayloadAndMergerOut() {
    TableConfig config = TableConfig.builder("t").build();
    assertThat(config.properties()).doesNotContainKeys(
        "hoodie.compaction.payload.class", "hoodie.compaction.record.merger.strategy", "hoodie.database.name");
    assertThat(config.type()).isEqualTo(TableType.COPY_ON_WRITE);
  }

  @Test
  void copyOnWriteBuilderKeepsAPayloadClassChosenExplicitly() {
    String payload = "org.apache.hudi.common.model.DefaultHoodieRecordPayload";
    TableConfig config = TableConfig.builder("t").payloadClass(payload).build();
    assertThat(config.payloadClass()).isEqualTo(payload);
    assertThat(config.properties()).doesNotContainKey("hoodie.compaction.record.merger.strategy");
  }

  @Test
  void absentKeysReadAsHudiDefaults() {
    TableConfig config = TableConfig.of(Map.of("hoodie.table.name", "t"));
    assertThat(config.type()).isEqualTo(TableType.COPY_ON_WRITE);
    assertThat(config.version()).isZero();
    assertThat(config.payloadClass()).isEqualTo("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload");
    assertThat(config.recordMergerStrategy()).isEqualTo(TableConfig.DEFAULT_MERGER_STRATEGY);
    assertThat(config.timelineTimezone()).isEqualTo(TimelineTimezone.LOCAL);
    assertThat(config.populateMetaFields()).isTrue();
    assertThat(config.partitionFields()).isEmpty();
    assertThat(config.metadataPartitions()).isEmpty();
    assertThat(config.isMetadataTableAvailable()).isFalse();
    assertThat(config.hasValidChecksum()).isTrue();
  }

  @Test
  void metadataPartitionsAreACommaList() {
    TableConfig config = TableConfig.of(Map.of("hoodie.table.name", "t",
        "hoodie.table.metadata.partitions", "column_stats,files"));
    assertThat(config.metadataPartitions()).containsExactly("column_stats", "files");
    assertThat(config.isMetadataTableAvailable()).isTrue();
  }

  @Test
  void tableVersionFiveIsRefusedNamingPathAndVersion() {
    TableConfig config = TableConfig.of(Map.of("hoodie.table.name", "t", "hoodie.table.version", "5",
        "hoodie.timeline.layout.version", "1"));
    assertThatThrownBy(() -> config.requireSupported(BASE))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("file:/data/orders")
        .hasMessageContaining("table version 5")
        .hasMessageContaining("older than 0.14");
  }

  @Test
  void tableVersionSevenIsRefusedAsAHudiPreRelease() {
    TableConfig config = TableConfig.of(Map.of("hoodie.table.name", "t", "hoodie.table.version", "7",
        "hoodie.timeline.layout.version", "2"));
    assertThatThrownBy(() -> config.requireSupported(BASE))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("file:/data/orders")
        .hasMessageContaining("table version 7")
        .hasMessageContaining("versions 6 and 8");
  }

  @Test
  void missingTimelineLayoutVersionIsRefused() {
    TableConfig config = TableConfig.of(Map.of("hoodie.table.name", "t", "hoodie.table.version", "6"));
    assertThatThrownBy(() -> config.requireSupported(BASE))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("file:/data/orders")
        .hasMessageContaining("hoodie.timeline.layout.version");
    assertThatThrownBy(config::timelineLayoutVersion).isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("hoodie.timeline.layout.version");
  }

  @Test
  void withRemovesKeysMappedToNull() {
    TableConfig config = TableConfig.builder("t").precombineField("ts").build();
    var changes = new java.util.HashMap<String, String>();
    changes.put("hoodie.table.precombine.field", null);
    changes.put("hoodie.table.metadata.partitions", "");
    TableConfig changed = config.with(changes);
    assertThat(changed.precombineField()).isEmpty();
    assertThat(changed.properties()).containsEntry("hoodie.table.metadata.partitions", "");
    assertThat(config.precombineField()).contains("ts");
  }

  private static TableConfig v8(Map<String, String> extra) {
    var props = new java.util.HashMap<String, String>(Map.of("hoodie.table.name", "t", "hoodie.table.version", "8",
        "hoodie.timeline.layout.version", "2", "hoodie.compaction.payload.class",
        "org.apache.hudi.common.model.EventTimeAvroPayload"));
    props.putAll(extra);
    return TableConfig.of(props);
  }

  @Test
  void versionEightMergeModeDecidesTheMergeAsHudi1Does() {
    assertThat(v8(Map.of("hoodie.record.merge.mode", "EVENT_TIME_ORDERING")).payloadClass())
        .isEqualTo("org.apache.hudi.common.model.DefaultHoodieRecordPayload");
    assertThat(v8(Map.of("hoodie.record.merge.mode", "COMMIT_TIME_ORDERING")).payloadClass())
        .isEqualTo("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload");
    assertThat(v8(Map.of("hoodie.record.merge.mode", "CUSTOM",
        "hoodie.record.merge.strategy.id", "00000000-0000-0000-0000-000000000000")).payloadClass())
        .isEqualTo("org.apache.hudi.common.model.EventTimeAvroPayload");
  }

  @Test
  void customMergerStrategyIsRefusedNamingIt() {
    TableConfig config = v8(Map.of("hoodie.record.merge.mode", "CUSTOM",
        "hoodie.record.merge.strategy.id", "11111111-2222-3333-4444-555555555555"));
    assertThatThrownBy(config::payloadClass)
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("11111111-2222-3333-4444-555555555555");
  }

  @Test
  void versionEightKeyGeneratorTypeNamesHudisClass() {
    assertThat(v8(Map.of("hoodie.table.keygenerator.type", "SIMPLE")).keyGeneratorClass())
        .contains("org.apache.hudi.keygen.SimpleKeyGenerator");
    assertThat(v8(Map.of("hoodie.table.keygenerator.type", "NON_PARTITION_AVRO")).keyGeneratorClass())
        .contains("org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator");
    assertThat(v8(Map.of("hoodie.table.keygenerator.type", "COMPLEX",
        "hoodie.table.keygenerator.class", "org.example.Mine")).keyGeneratorClass()).contains("org.example.Mine");
    assertThatThrownBy(() -> v8(Map.of("hoodie.table.keygenerator.type", "SPARK_SQL_UUID")).keyGeneratorClass())
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("SPARK_SQL_UUID");
  }

  @Test
  void versionEightIsReadableAndWritable() {
    TableConfig config = v8(Map.of());
    config.requireReadable(BASE);
    config.requireSupported(BASE);
    assertThat(config.timelineFolder()).isEqualTo("timeline");
    assertThat(config.logFilesNamedByDeltaCommit()).isTrue();
    assertThat(TableConfig.of(Map.of("hoodie.table.name", "t", "hoodie.table.version", "6",
        "hoodie.timeline.layout.version", "1")).timelineFolder()).isEmpty();
  }

  @Test
  void versionEightConfigHasTheKeysHudi102Writes() {
    TableConfig config = TableConfig.builder("t").type(TableType.MERGE_ON_READ).tableVersion(8)
        .recordKeyFields(List.of("id")).partitionFields(List.of("part")).precombineField("ts")
        .keyGeneratorClass("org.apache.hudi.keygen.SimpleKeyGenerator")
        .payloadClass("org.apache.hudi.common.model.DefaultHoodieRecordPayload").build();
    assertThat(config.properties()).contains(
        Map.entry("hoodie.table.version", "8"),
        Map.entry("hoodie.table.initial.version", "8"),
        Map.entry("hoodie.timeline.layout.version", "2"),
        Map.entry("hoodie.timeline.path", "timeline"),
        Map.entry("hoodie.timeline.history.path", "history"),
        Map.entry("hoodie.archivelog.folder", "history"),
        Map.entry("hoodie.table.keygenerator.type", "SIMPLE"),
        Map.entry("hoodie.record.merge.mode", "EVENT_TIME_ORDERING"),
        Map.entry("hoodie.record.merge.strategy.id", "eeb8d96f-b1e4-49fd-bbf8-28ac514178e5"),
        Map.entry("hoodie.compaction.payload.class", "org.apache.hudi.common.model.DefaultHoodieRecordPayload"));
    assertThat(config.properties()).doesNotContainKey("hoodie.compaction.record.merger.strategy");
    config.requireSupported(BASE);
    assertThat(config.payloadClass()).isEqualTo("org.apache.hudi.common.model.DefaultHoodieRecordPayload");
  }

  @Test
  void versionEightMergeModeFollowsThePayloadClass() {
    TableConfig latest = TableConfig.builder("t").tableVersion(8).build();
    assertThat(latest.recordMergeMode()).contains("COMMIT_TIME_ORDERING");
    assertThat(latest.getOrDefault(TableProperty.RECORD_MERGE_STRATEGY_ID)).isEqualTo("ce9acb64-bde0-424c-9b91-f6ebba25356d");
    assertThat(latest.payloadClass()).isEqualTo("org.apache.hudi.common.model.OverwriteWithLatestAvroPayload");
    TableConfig custom = TableConfig.builder("t").tableVersion(8).payloadClass("org.example.MyPayload").build();
    assertThat(custom.recordMergeMode()).contains("CUSTOM");
    assertThat(custom.getOrDefault(TableProperty.RECORD_MERGE_STRATEGY_ID)).isEqualTo("00000000-0000-0000-0000-000000000000");
    assertThat(custom.payloadClass()).isEqualTo("org.example.MyPayload");
    assertThatThrownBy(() -> TableConfig.builder("t").tableVersion(7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version 7");
  }
}
