package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one schema resolver readers, writers, the compactor and Hive sync share. */
class TableSchemaResolverTest {
  private static final Schema V1 = SchemaBuilder.record("r").fields().requiredString("id").requiredLong("ts")
      .endRecord();
  private static final Schema V2 = SchemaBuilder.record("r").fields().requiredString("id").requiredLong("ts")
      .optionalString("note").endRecord();

  @TempDir java.nio.file.Path dir;

  private Table table(String createSchema) throws Exception {
    TableConfig.Builder config = TableConfig.builder("r").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).precombineField("ts");
    if (createSchema != null) {
      config.createSchema(createSchema);
    }
    return Table.create(FileSystem.getLocal(new Configuration()), new Path(dir.toUri().toString(), "r"),
        config.build());
  }

  private static void commit(Table table, String time, Action action, WriteOperationType op, String schema) {
    TimelineStore store = table.timelineStore();
    Instant inflight = store.transitionToInflight(store.createRequested(time, action, new byte[0]), new byte[0]);
    CommitMetadata.Builder metadata = CommitMetadata.builder(op);
    if (schema != null) {
      metadata.schema(schema);
    }
    store.complete(inflight, metadata.build().toJsonBytes());
  }

  @Test
  void theNewestCommitThatCanChangeTheSchemaWinsAndACompactionsSchemaIsSkipped() throws Exception {
    Table table = table(null);
    commit(table, "20250101000000001", Action.DELTA_COMMIT, WriteOperationType.UPSERT, V1.toString());
    commit(table, "20250101000000002", Action.DELTA_COMMIT, WriteOperationType.UPSERT, V2.toString());
    commit(table, "20250101000000003", Action.COMMIT, WriteOperationType.COMPACT, V1.toString());

    Schema resolved = TableSchemaResolver.resolve(table, table.refreshTimeline()).orElseThrow();
    assertThat(TableSchemas.hasMetaFields(resolved)).isTrue();
    assertThat(TableSchemas.removeMetaFields(resolved).getField("note")).as("V2, the upsert's").isNotNull();
  }

  @Test
  void withoutACommitSchemaTheCreateSchemaIsUsed() throws Exception {
    Table table = table(V1.toString());
    commit(table, "20250101000000001", Action.DELTA_COMMIT, WriteOperationType.UPSERT, null);
    assertThat(TableSchemas.removeMetaFields(TableSchemaResolver.resolve(table, table.refreshTimeline())
        .orElseThrow()).getFields()).extracting(Schema.Field::name).containsExactly("id", "ts");
  }

  @Test
  void aTableWithNothingToResolveFromHasNoSchema() throws Exception {
    Table table = table(null);
    assertThat(TableSchemaResolver.resolve(table, table.refreshTimeline())).isEmpty();
  }

  @Test
  void aSchemaThatIsNotAvroIsReportedWithTheCommitFile() throws Exception {
    Table table = table(null);
    commit(table, "20250101000000001", Action.DELTA_COMMIT, WriteOperationType.UPSERT, "{not avro");
    assertThatThrownBy(() -> TableSchemaResolver.resolve(table, table.refreshTimeline()))
        .isInstanceOf(TableException.class).hasMessageContaining("20250101000000001.deltacommit");
  }
}
