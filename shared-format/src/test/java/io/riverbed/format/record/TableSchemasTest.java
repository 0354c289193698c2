package io.riverbed.format.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import java.util.List;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

class TableSchemasTest {
  private static final Schema USER = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
      .requiredString("id")
      .name("ts").doc("event time").type().longType().noDefault()
      .name("rider").type().record("rider").fields().requiredString("name").endRecord().noDefault()
      .optionalString("city")
      .endRecord();

  @Test
  void addMetaFieldsPutsTheFiveNullableStringColumnsFirst() {
    Schema schema = TableSchemas.addMetaFields(USER);
    assertThat(schema.getFields()).extracting(Schema.Field::name).containsExactly(
        "_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key", "_hoodie_partition_path",
        "_hoodie_file_name", "id", "ts", "rider", "city");
    for (int i = 0; i < 5; i++) {
      Schema.Field field = schema.getFields().get(i);
      assertThat(field.schema().toString()).isEqualTo("[\"null\",\"string\"]");
      assertThat(field.defaultVal()).isEqualTo(JsonProperties.NULL_VALUE);
      assertThat(field.doc()).isEqualTo("");
    }
    assertThat(schema.getField("ts").doc()).isEqualTo("event time");
    assertThat(schema.getFullName()).isEqualTo("hoodie.trips.trips_record");
    assertThat(schema.toString()).startsWith("{\"type\":\"record\",\"name\":\"trips_record\",\"namespace\":\"hoodie.trips\","
        + "\"fields\":[{\"name\":\"_hoodie_commit_time\",\"type\":[\"null\",\"string\"],\"doc\":\"\",\"default\":null}");
    assertThat(TableSchemas.hasMetaFields(schema)).isTrue();
    assertThat(TableSchemas.hasMetaFields(USER)).isFalse();
  }

  @Test
  void addMetaFieldsIsIdempotentAndCanAddTheOperationColumn() {
    Schema once = TableSchemas.addMetaFields(USER, true);
    Schema twice = TableSchemas.addMetaFields(once, true);
    assertThat(twice).isEqualTo(once);
    assertThat(once.getFields().get(5).name()).isEqualTo("_hoodie_operation");
  }

  @Test
  void removeMetaFieldsGivesBackTheUserSchema() {
    assertThat(TableSchemas.removeMetaFields(TableSchemas.addMetaFields(USER, true))).isEqualTo(USER);
  }

  @Test
  void writerSchemaNamingFollowsHudi() {
    assertThat(TableSchemas.recordName("trips")).isEqualTo("trips_record");
    assertThat(TableSchemas.namespace("trips")).isEqualTo("hoodie.trips");
    assertThat(TableSchemas.sanitizeName("my-table.v2")).isEqualTo("my__table__v2");
    assertThat(TableSchemas.sanitizeName("1abc")).isEqualTo("__abc");
    Schema named = TableSchemas.withTableName(SchemaBuilder.record("x").fields().requiredInt("a").endRecord(), "orders");
    assertThat(named.getFullName()).isEqualTo("hoodie.orders.orders_record");
  }

  @Test
  void nullableMakesEveryFieldANullFirstUnionWithNullDefault() {
    Schema schema = TableSchemas.nullable(USER);
    assertThat(schema.getField("id").schema().toString()).isEqualTo("[\"null\",\"string\"]");
    assertThat(schema.getField("id").defaultVal()).isEqualTo(JsonProperties.NULL_VALUE);
    assertThat(schema.getField("city").schema().toString()).isEqualTo("[\"null\",\"string\"]");
    Schema rider = schema.getField("rider").schema().getTypes().get(1);
    assertThat(rider.getField("name").schema().toString()).isEqualTo("[\"null\",\"string\"]");
    Schema reversed = SchemaBuilder.record("r").fields()
        .name("a").type().unionOf().stringType().and().nullType().endUnion().stringDefault("x").endRecord();
    assertThat(TableSchemas.nullable(reversed).getField("a").schema().toString()).isEqualTo("[\"null\",\"string\"]");
  }

  @Test
  void validateFieldsNamesTheMissingFieldAndTheSchema() {
    TableSchemas.validateFields(USER, List.of("id", "rider.name"), "ts", List.of("city"));
    assertThatThrownBy(() -> TableSchemas.validateFields(USER, List.of("id"), "updated_at", List.of()))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("precombine field")
        .hasMessageContaining("'updated_at'")
        .hasMessageContaining("hoodie.trips.trips_record");
    assertThatThrownBy(() -> TableSchemas.validateFields(USER, List.of("uuid"), null, List.of()))
        .hasMessageContaining("record key field").hasMessageContaining("'uuid'");
    assertThatThrownBy(() -> TableSchemas.validateFields(USER, List.of("id"), "", List.of("rider.age")))
        .hasMessageContaining("partition path field").hasMessageContaining("'rider.age'");
  }
}
