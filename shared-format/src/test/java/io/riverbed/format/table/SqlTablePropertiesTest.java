package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidTableException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

/** The table a SQL CREATE TABLE's properties define, as Hudi 0.15's SQL layer reads them. */
class SqlTablePropertiesTest {
  static final Schema SCHEMA = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
      .requiredInt("id").requiredString("region").optionalLong("ts").optionalString("dt").endRecord();

  @Test
  void sqlNamesMakeTheTableConfigHudiSqlWrites() {
    SqlTableProperties sql = SqlTableProperties.of("CREATE TABLE t",
        Map.of("primaryKey", "id", "preCombineField", "ts", "type", "MOR"), List.of("dt"));
    Map<String, String> config = sql.toConfig("CREATE TABLE t", "lake", "trips", SCHEMA).properties();
    assertThat(config)
        .containsEntry("hoodie.table.name", "trips")
        .containsEntry("hoodie.database.name", "lake")
        .containsEntry("hoodie.table.type", "MERGE_ON_READ")
        .containsEntry("hoodie.table.recordkey.fields", "id")
        .containsEntry("hoodie.table.precombine.field", "ts")
        .containsEntry("hoodie.table.partition.fields", "dt")
        .containsEntry("hoodie.table.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator")
        .containsEntry("hoodie.datasource.write.hive_style_partitioning", "true")
        .containsEntry("hoodie.table.checksum", String.valueOf(TableConfig.checksumOf("lake", "trips")));
  }

  @Test
  void writeOptionNamesWorkAndTheKeyGeneratorFollowsTheColumns() {
    SqlTableProperties sql = SqlTableProperties.of("CREATE TABLE t", Map.of(
        "hoodie.datasource.write.recordkey.field", "id,region", "hoodie.datasource.write.table.type", "COPY_ON_WRITE",
        "hoodie.datasource.write.hive_style_partitioning", "false"), List.of("dt"));
    assertThat(sql.type()).isEqualTo(TableType.COPY_ON_WRITE);
    assertThat(sql.precombineField()).isNull();
    assertThat(sql.keys().hiveStylePartitioning()).isFalse();
    assertThat(sql.toConfig("CREATE TABLE t", null, "trips", SCHEMA).keyGeneratorClass())
        .contains("org.apache.hudi.keygen.ComplexKeyGenerator");
    assertThat(SqlTableProperties.of("CREATE TABLE t", Map.of("primaryKey", "id"), List.of())
        .toConfig("CREATE TABLE t", null, "trips", SCHEMA).keyGeneratorClass())
        .contains("org.apache.hudi.keygen.NonpartitionedKeyGenerator");
  }

  @Test
  void withoutPrimaryKeyTheTableGeneratesItsKeysAndStoresThePrecombineFieldAsHudiDoes() {
    SqlTableProperties sql = SqlTableProperties.of("CREATE TABLE t", Map.of("preCombineField", "ts"), List.of("dt"));
    assertThat(sql.keys().generatesKeys()).isTrue();
    TableConfig config = sql.toConfig("CREATE TABLE t", "default", "trips", SCHEMA);
    assertThat(config.properties()).doesNotContainKeys("hoodie.table.recordkey.fields")
        .containsEntry("hoodie.table.precombine.field", "ts")
        .containsEntry("hoodie.table.partition.fields", "dt")
        .containsEntry("hoodie.table.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator")
        .containsEntry("hoodie.datasource.write.hive_style_partitioning", "true");
  }

  @Test
  void whatRiverbedCannotCreateIsRefusedNamingTheProperty() {
    assertThatThrownBy(() -> SqlTableProperties.of("CREATE TABLE t", Map.of("primaryKey", "id", "type", "x"), List.of()))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("type = 'x' is neither 'cow' nor 'mor'");
    SqlTableProperties noSuchColumn = SqlTableProperties.of("CREATE TABLE t",
        Map.of("primaryKey", "id", "preCombineField", "updated"), List.of());
    assertThatThrownBy(() -> noSuchColumn.toConfig("CREATE TABLE t", null, "trips", SCHEMA))
        .isInstanceOf(InvalidTableException.class).hasMessageStartingWith("CREATE TABLE t: ").hasMessageContaining("updated");
  }

  @Test
  void theTableSettingsGoBackToTheirSqlNamesAsHudiAddsThemToTheCatalog() {
    TableConfig keyed = SqlTableProperties.of("CREATE TABLE t", Map.of("primaryKey", "id,region", "preCombineField", "ts",
        "type", "mor"), List.of("dt")).toConfig("CREATE TABLE t", "lake", "trips", SCHEMA);
    assertThat(SqlTableProperties.sqlNamesOf(keyed)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "primaryKey", "id,region", "preCombineField", "ts", "type", "mor"));
    TableConfig keyless = SqlTableProperties.of("CREATE TABLE t", Map.of(), List.of())
        .toConfig("CREATE TABLE t", "lake", "trips", SCHEMA);
    assertThat(SqlTableProperties.sqlNamesOf(keyless)).containsExactlyInAnyOrderEntriesOf(Map.of("type", "cow"));
  }

  @Test
  void tablePropertyWriteTableVersion8CreatesAVersion8Table() {
    TableConfig v8 = SqlTableProperties.of("CREATE TABLE t", Map.of("primaryKey", "id", "hoodie.write.table.version", "8"),
        List.of()).toConfig("CREATE TABLE t", "lake", "trips", SCHEMA);
    assertThat(v8.version()).isEqualTo(8);
    assertThat(v8.timelineLayoutVersion()).isEqualTo(2);
    assertThat(SqlTableProperties.of("CREATE TABLE t", Map.of("primaryKey", "id"), List.of())
        .toConfig("CREATE TABLE t", "lake", "trips", SCHEMA).version()).isEqualTo(6);
    assertThatThrownBy(() -> SqlTableProperties.of("CREATE TABLE t", Map.of("hoodie.write.table.version", "7"), List.of()))
        .isInstanceOf(io.riverbed.format.InvalidTableException.class)
        .hasMessageContaining("CREATE TABLE t")
        .hasMessageContaining("hoodie.write.table.version");
  }
}
