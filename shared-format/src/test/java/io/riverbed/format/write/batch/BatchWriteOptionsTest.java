package io.riverbed.format.write.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.record.KeyGeneratorType;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchWriteOptionsTest {
  @Test
  void hudiDefaultsAreUpsertOnCopyOnWrite() {
    var o = BatchWriteOptions.fromMap(Map.of("hoodie.table.name", "t"));
    assertThat(o.operation()).isEqualTo(WriteOperationType.UPSERT);
    assertThat(o.tableType()).isEqualTo(TableType.COPY_ON_WRITE);
    assertThat(o.looksUpKeys()).isTrue();
    assertThat(o.deletes()).isFalse();
    assertThat(o.parallelism()).isZero();
  }

  @Test
  void theEmptyPayloadClassMakesEveryRowADeleteAndIsNotTheTablesPayload() {
    var o = BatchWriteOptions.fromMap(Map.of(BatchWriteOptions.PAYLOAD_CLASS, BatchWriteOptions.EMPTY_PAYLOAD));
    assertThat(o.deletes()).isTrue();
    assertThat(o.write().payloadClass()).isNull();
  }

  @Test
  void keyGeneratorClassesAndParallelismAreRead() {
    var o = BatchWriteOptions.fromMap(Map.of("hoodie.datasource.write.recordkey.field", "a,b",
        "hoodie.datasource.write.partitionpath.field", "p,q",
        "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.ComplexKeyGenerator",
        "hoodie.datasource.write.operation", "bulk_insert", "hoodie.bulkinsert.shuffle.parallelism", "7"));
    assertThat(o.keyGenerator().type()).isEqualTo(KeyGeneratorType.COMPLEX);
    assertThat(o.keyGenerator().recordKeyFields()).containsExactly("a", "b");
    assertThat(o.parallelism()).isEqualTo(7);
    assertThat(o.looksUpKeys()).isFalse();
  }

  @Test
  void replacingOperationsUseTheInsertParallelismAndNamedPartitions() {
    var o = BatchWriteOptions.fromMap(Map.of("hoodie.datasource.write.operation", "INSERT_OVERWRITE_TABLE",
        "hoodie.insert.shuffle.parallelism", "3"));
    assertThat(o.operation()).isEqualTo(WriteOperationType.INSERT_OVERWRITE_TABLE);
    assertThat(o.parallelism()).isEqualTo(3);
    assertThat(o.replaces()).isTrue();
    assertThat(o.looksUpKeys()).isFalse();
    var d = BatchWriteOptions.fromMap(Map.of("hoodie.datasource.write.operation", "delete_partition",
        "hoodie.datasource.write.partitions.to.delete", " 2015/01/*, ,2016/02/01 "));
    assertThat(d.partitionsToDelete()).containsExactly("2015/01/*", "2016/02/01");
    assertThat(d.deletes()).isFalse();
    assertThat(BatchWriteOptions.fromMap(Map.of()).partitionsToDelete()).isEmpty();
  }

  @Test
  void unsupportedOptionsAndValuesAreRefusedByName() {
    assertThatThrownBy(() -> BatchWriteOptions.fromMap(Map.of("hoodie.clustering.inline", "true")))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("option hoodie.clustering.inline is not supported");
    assertThatThrownBy(() -> BatchWriteOptions.fromMap(Map.of("hoodie.index.type", "BLOOM")))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("hoodie.index.type='BLOOM' is not supported");
    assertThatThrownBy(() -> BatchWriteOptions.fromMap(Map.of("hoodie.datasource.write.operation", "cluster")))
        .hasMessageContaining("'cluster' is not supported");
    assertThatThrownBy(() -> BatchWriteOptions.fromMap(Map.of("hoodie.datasource.write.table.type", "MOR")))
        .hasMessageContaining("hoodie.datasource.write.table.type='MOR'");
    assertThatThrownBy(() -> BatchWriteOptions.fromMap(Map.of("hoodie.upsert.shuffle.parallelism", "many")))
        .hasMessageContaining("hoodie.upsert.shuffle.parallelism='many'");
  }

  @Test
  void metaSyncSettingsAreLeftToTheSyncWhichEitherFlagTurnsOn() {
    var o = BatchWriteOptions.fromMap(Map.of("hoodie.datasource.hive_sync.table", "t",
        "hoodie.datasource.hive_sync.partition_fields", "dt", "hoodie.meta.sync.decode_partition", "true",
        "hoodie.meta_sync.spark.version", "3.5.1", "hoodie.datasource.meta_sync.condition.sync", "true",
        "hoodie.datasource.write.table.name", "t"));
    assertThat(o.tableName()).isEqualTo("t");
    assertThat(o.metaSyncEnabled()).isFalse();
    assertThat(BatchWriteOptions.fromMap(Map.of("hoodie.datasource.hive_sync.enable", "true")).metaSyncEnabled()).isTrue();
    assertThat(BatchWriteOptions.fromMap(Map.of("hoodie.datasource.meta.sync.enable", " TRUE ")).metaSyncEnabled()).isTrue();
    assertThat(BatchWriteOptions.fromMap(Map.of("hoodie.datasource.hive_sync.enable", "false")).metaSyncEnabled()).isFalse();
  }
}
