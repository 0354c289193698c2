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

  @Test
  void theUnionKeepsTheTablesColumnsInOrderAndAppendsTheWrittenOnesNullable() {
    Schema written = SchemaBuilder.record("x").fields().requiredString("id").requiredLong("n").optionalString("note")
        .endRecord();
    Schema union = SchemaEvolution.union(TABLE, written, "task 1");
    assertThat(union.getFields()).extracting(Schema.Field::name).containsExactly("id", "ts", "n", "note");
    assertThat(union.getFullName()).isEqualTo("hoodie.t.t_record");
    assertThat(union.getField("n").schema()).isEqualTo(SchemaBuilder.unionOf().nullType().and().longType().endUnion());
    assertThat(union.getField("n").defaultVal()).isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
    // a written schema lacking table columns keeps them: files without a column read it as null
    Schema narrower = SchemaBuilder.record("x").fields().requiredString("id").endRecord();
    assertThat(SchemaEvolution.union(union, narrower, "task 2")).isEqualTo(union);
  }

  @Test
  void theUnionWidensByPromotionEitherWayAndRefusesOtherTypeChangesNamingColumnAndOrigin() {
    Schema doubles = SchemaBuilder.record("x").fields().requiredString("id").optionalDouble("ts").endRecord();
    assertThat(SchemaEvolution.union(TABLE, doubles, "task 1").getField("ts").schema())
        .isEqualTo(SchemaBuilder.unionOf().nullType().and().doubleType().endUnion());
    Schema ints = SchemaBuilder.record("x").fields().requiredString("id").requiredInt("ts").endRecord();
    assertThat(SchemaEvolution.union(TABLE, ints, "task 1").getField("ts").schema())
        .isEqualTo(TableSchemas.removeMetaFields(TABLE).getField("ts").schema());
    Schema strings = SchemaBuilder.record("x").fields().requiredString("id").optionalString("ts").endRecord();
    assertThatThrownBy(() -> SchemaEvolution.union(TABLE, strings, "the files task 3 wrote"))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("column 'ts' has type \"string\" in the files task 3 wrote but \"long\"");
  }
}
