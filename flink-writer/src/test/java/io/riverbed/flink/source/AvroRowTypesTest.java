package io.riverbed.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.write.RowTypeAvroConverter;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class AvroRowTypesTest {
  private static final String SCHEMA = """
      {"type": "record", "name": "order", "fields": [
        {"name": "id", "type": "string"},
        {"name": "qty", "type": ["null", "int"], "default": null},
        {"name": "ts", "type": "long"},
        {"name": "price", "type": {"type": "fixed", "name": "p", "size": 5, "logicalType": "decimal", "precision": 10, "scale": 2}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "at", "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}]},
        {"name": "kind", "type": {"type": "enum", "name": "k", "symbols": ["A", "B"]}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": ["null", "double"]}},
        {"name": "customer", "type": ["null", {"type": "record", "name": "c", "fields": [{"name": "name", "type": "string"}]}]}
      ]}""";

  @Test
  void mapsAvroTypesToFlinkTypes() {
    RowType t = AvroRowTypes.toRowType(new Schema.Parser().parse(SCHEMA));
    assertThat(t.asSummaryString()).isEqualTo("ROW<`id` STRING NOT NULL, `qty` INT, `ts` BIGINT NOT NULL, "
        + "`price` DECIMAL(10, 2) NOT NULL, `day` DATE NOT NULL, `at` TIMESTAMP(6), `kind` STRING NOT NULL, "
        + "`tags` ARRAY<STRING NOT NULL> NOT NULL, `attrs` MAP<STRING NOT NULL, DOUBLE> NOT NULL, "
        + "`customer` ROW<`name` STRING NOT NULL>> NOT NULL");
  }

  @Test
  void roundTripsThroughTheWritersConverter() {
    RowType t = AvroRowTypes.toRowType(new Schema.Parser().parse(SCHEMA));
    Schema stored = RowTypeAvroConverter.toAvroSchema(t, "orders");
    assertThat(AvroRowTypes.toRowType(stored).asSummaryString())
        .isEqualTo(t.asSummaryString());
  }

  @Test
  void unionsOfTwoTypesAreRejectedNamingTheField() {
    Schema s = new Schema.Parser().parse("""
        {"type": "record", "name": "r", "fields": [{"name": "v", "type": ["null", "int", "string"]}]}""");
    assertThatThrownBy(() -> AvroRowTypes.toRowType(s)).hasMessageContaining("field 'v': union");
  }
}
