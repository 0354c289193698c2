package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.WriteOperationType;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeTravelSchemaTest {
  static final Schema WITH_NOTE = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id").optionalString("name").requiredLong("ts").requiredString("dt")
      .optionalBoolean("_hoodie_is_deleted").optionalString("note")
      .endRecord();
  @TempDir java.nio.file.Path dir;

  /** As Hudi 0.15 reads {@code as.of.instant}: in the schema of that instant, a later added column absent. */
  @Test
  void timeTravelBeforeAnAddedColumnReadsInTheSchemaOfItsInstant() throws Exception {
    Table table = WriteTestSupport.createTable(dir, TableType.COPY_ON_WRITE);
    String first = new SingleTaskEngine(table, WriteTestSupport.SCHEMA, WriteOptions.defaults())
        .write(WriteOperationType.UPSERT, List.of(WriteTestSupport.upsert("1", "a", 1, "2024-01-01")), Map.of());
    GenericData.Record noted = new GenericData.Record(WITH_NOTE);
    noted.put("id", "2");
    noted.put("ts", 2L);
    noted.put("dt", "2024-01-01");
    noted.put("note", "n");
    String second = new SingleTaskEngine(table, WITH_NOTE, WriteOptions.defaults())
        .write(WriteOperationType.UPSERT, List.of(RecordKeyer.forTable(table.config()).toWriteRecord(noted)), Map.of());

    assertThat(fields(table, QuerySpec.asOf(first))).doesNotContain("note").contains("name");
    assertThat(fields(table, QuerySpec.asOf(second))).contains("note");
    assertThat(fields(table, QuerySpec.snapshot())).contains("note");
  }

  private static List<String> fields(Table table, QuerySpec query) {
    return QueryPlanner.plan(table, query).schema().orElseThrow().getFields().stream().map(Schema.Field::name).toList();
  }
}
