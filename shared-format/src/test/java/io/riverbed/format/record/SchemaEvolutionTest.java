package io.riverbed.format.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {
  static final Schema TABLE = TableSchemas.addMetaFields(SchemaBuilder.record("t_record").namespace("hoodie.t").fields()
      .requiredString("id").optionalLong("ts").endRecord());

  @Test
  void aFirstWriteTakesTheDataSchemaUnderTheTableName() {
    Schema in = SchemaBuilder.record("x").fields().requiredString("id").endRecord();
    Schema out = SchemaEvolution.writeSchema(Optional.empty(), in, "trips");
    assertThat(out.getFullName()).isEqualTo("hoodie.trips.trips_record");
    assertThat(out.getFields()).extracting(Schema.Field::name).containsExactly("id");
  }

  @Test
  void theTablesColumnsKeepTheirTypesAndNewNullableColumnsGoLast() {
    Schema in = SchemaBuilder.record("x").fields().optionalString("note").optionalString("id").requiredLong("ts")
        .endRecord();
    Schema out = SchemaEvolution.writeSchema(Optional.of(TABLE), in, "t");
    assertThat(out.getFields()).extracting(Schema.Field::name).containsExactly("id", "ts", "note");
    assertThat(out.getField("id").schema().getType()).isEqualTo(Schema.Type.STRING);
    assertThat(out.getField("note").schema().getTypes().get(0).getType()).isEqualTo(Schema.Type.NULL);
  }

  @Test
  void missingChangedAndRequiredNewColumnsAreRefusedByName() {
    assertThatThrownBy(() -> SchemaEvolution.writeSchema(Optional.of(TABLE),
        SchemaBuilder.record("x").fields().requiredString("id").endRecord(), "t"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("column 'ts'").hasMessageContaining("missing");
    assertThatThrownBy(() -> SchemaEvolution.writeSchema(Optional.of(TABLE),
        SchemaBuilder.record("x").fields().requiredString("id").requiredString("ts").endRecord(), "t"))
        .hasMessageContaining("column 'ts' has type \"string\"");
    assertThatThrownBy(() -> SchemaEvolution.writeSchema(Optional.of(TABLE),
        SchemaBuilder.record("x").fields().requiredString("id").optionalLong("ts").requiredInt("n").endRecord(), "t"))
        .hasMessageContaining("new column 'n' is not nullable");
  }

  @Test
  void aWiderTypeInTheDataWidensTheColumnAndANarrowerOneIsWrittenInTheTablesType() {
    Schema wider = SchemaEvolution.writeSchema(Optional.of(TABLE),
        SchemaBuilder.record("x").fields().requiredString("id").optionalDouble("ts").endRecord(), "t");
    assertThat(wider.getField("ts").schema()).isEqualTo(SchemaBuilder.unionOf().nullType().and().doubleType().endUnion());
    Schema narrower = SchemaEvolution.writeSchema(Optional.of(TABLE),
        SchemaBuilder.record("x").fields().requiredString("id").requiredInt("ts").endRecord(), "t");
    assertThat(narrower.getField("ts").schema()).isEqualTo(TABLE.getField("ts").schema());
    assertThat(SchemaEvolution.promotes(Schema.create(Schema.Type.LONG), Schema.create(Schema.Type.INT))).isFalse();
    assertThat(SchemaEvolution.promotes(Schema.create(Schema.Type.FLOAT), Schema.create(Schema.Type.LONG))).isFalse();
    assertThatThrownBy(() -> SchemaEvolution.writeSchema(Optional.of(TABLE),
        SchemaBuilder.record("x").fields().requiredLong("id").optionalLong("ts").endRecord(), "t"))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("column 'id' has type \"long\"")
        .hasMessageContaining("may only be widened");
  }
}
