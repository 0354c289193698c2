package io.riverbed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.hive.CatalogHiveTables;
import io.riverbed.hive.CatalogHiveTables.Column;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The Hive table {@link HiveTableRegistration} registers for a table SQL creates, field by field as
 * Hudi 0.15's {@code CreateHoodieTableCommand} registered it for the same statements in a metastore
 * (the seeds' {@code hudi_cow_pt_tbl}, {@code hudi_mor_tbl} and {@code hudi_cow_nokey_tbl});
 * {@code CatalogHiveTablesTest} lands such tables in a real metastore and
 * {@code SeedsInSparkShellMatchHudiTest} compares Riverbed's shell's metastore with Hudi's.
 */
class HiveTableRegistrationTest {
  static final StructType PT_COLUMNS = (StructType) DataType.fromDDL(
      "id BIGINT, name STRING, ts BIGINT, dt STRING, hh STRING");
  static final TableConfig PT_CONFIG = TableConfig.builder("hudi_cow_pt_tbl").type(TableType.COPY_ON_WRITE)
      .recordKeyFields(List.of("id")).precombineField("ts").partitionFields(List.of("dt", "hh")).build();
  static final String PT_LOCATION = "file:/lake/hudi_cow_pt_tbl";
  /** What Spark 3.5 passes a catalog for the seeds' CREATE TABLE ... PARTITIONED BY (dt, hh) LOCATION '...'. */
  static final Map<String, String> PT_PROPERTIES = Map.of("provider", "hudi", "location", PT_LOCATION, "owner", "ana",
      "type", "cow", "primaryKey", "id", "preCombineField", "ts", "option.hoodie.x", "y", "hoodie.table.name", "ignored");
  static final List<Column> META = List.of(new Column("_hoodie_commit_time", "string"),
      new Column("_hoodie_commit_seqno", "string"), new Column("_hoodie_record_key", "string"),
      new Column("_hoodie_partition_path", "string"), new Column("_hoodie_file_name", "string"));

  static List<Column> withMeta(Column... columns) {
    return java.util.stream.Stream.concat(META.stream(), java.util.Arrays.stream(columns)).toList();
  }

  @Test
  void aPartitionedTableWithALocationIsAnExternalHiveTableWithHudisFormatsColumnsAndProperties() {
    CatalogHiveTables.Definition table = HiveTableRegistration.definition("default", "hudi_cow_pt_tbl", PT_COLUMNS,
        PT_CONFIG, PT_PROPERTIES, PT_LOCATION, true, "3.5.1", 4000);

    assertThat(table.database()).isEqualTo("default");
    assertThat(table.name()).isEqualTo("hudi_cow_pt_tbl");
    assertThat(table.external()).isTrue();
    assertThat(table.location()).isEqualTo(PT_LOCATION);
    assertThat(table.inputFormat()).isEqualTo("org.apache.hudi.hadoop.HoodieParquetInputFormat");
    assertThat(table.columns()).containsExactlyElementsOf(withMeta(new Column("id", "bigint"),
        new Column("name", "string"), new Column("ts", "bigint")));
    assertThat(table.partitionKeys()).containsExactly(new Column("dt", "string"), new Column("hh", "string"));
    String schema = "{\"type\":\"struct\",\"fields\":[" + String.join(",",
        field("_hoodie_commit_time", "string"), field("_hoodie_commit_seqno", "string"),
        field("_hoodie_record_key", "string"), field("_hoodie_partition_path", "string"),
        field("_hoodie_file_name", "string"), field("id", "long"), field("name", "string"), field("ts", "long"),
        field("dt", "string"), field("hh", "string")) + "]}";
    assertThat(table.properties()).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
        Map.entry("provider", "hudi"), Map.entry("type", "cow"), Map.entry("primaryKey", "id"),
        Map.entry("preCombineField", "ts"),
        Map.entry("spark.sql.sources.provider", "hudi"), Map.entry("spark.sql.create.version", "3.5.1"),
        Map.entry("spark.sql.sources.schema.numParts", "1"), Map.entry("spark.sql.sources.schema.part.0", schema),
        Map.entry("spark.sql.sources.schema.numPartCols", "2"), Map.entry("spark.sql.sources.schema.partCol.0", "dt"),
        Map.entry("spark.sql.sources.schema.partCol.1", "hh")));
  }

  static String field(String name, String type) {
    return "{\"name\":\"" + name + "\",\"type\":\"" + type + "\",\"nullable\":true,\"metadata\":{}}";
  }

  @Test
  void aMergeOnReadTableWithoutLocationIsManagedWithTheRealtimeInputFormatAndItsTypeFromTheTable() {
    StructType columns = (StructType) DataType.fromDDL("id INT, name STRING, price DOUBLE, ts BIGINT");
    TableConfig config = TableConfig.builder("hudi_mor_tbl").type(TableType.MERGE_ON_READ).recordKeyFields(List.of("id"))
        .precombineField("ts").build();
    CatalogHiveTables.Definition table = HiveTableRegistration.definition("default", "hudi_mor_tbl", columns, config,
        Map.of("provider", "hudi", "owner", "ana", "type", "mor", "primaryKey", "id", "preCombineField", "ts"),
        "file:/warehouse/hudi_mor_tbl", false, "3.5.1", 4000);

    assertThat(table.external()).isFalse();
    assertThat(table.inputFormat()).isEqualTo("org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat");
    assertThat(table.partitionKeys()).isEmpty();
    assertThat(table.columns()).containsExactlyElementsOf(withMeta(new Column("id", "int"),
        new Column("name", "string"), new Column("price", "double"), new Column("ts", "bigint")));
    assertThat(table.properties()).containsEntry("type", "mor")
        .doesNotContainKeys("owner", "path", "spark.sql.sources.schema.numPartCols");
  }

  @Test
  void aKeylessTableGetsItsTypeButNoPrimaryKey() {
    StructType columns = (StructType) DataType.fromDDL("uuid INT, name STRING, price DOUBLE");
    TableConfig config = TableConfig.builder("hudi_cow_nokey_tbl").type(TableType.COPY_ON_WRITE).build();
    CatalogHiveTables.Definition table = HiveTableRegistration.definition("default", "hudi_cow_nokey_tbl", columns,
        config, Map.of("provider", "hudi", "owner", "ana"), "file:/warehouse/hudi_cow_nokey_tbl", false, "3.5.1", 4000);

    assertThat(table.properties()).containsEntry("type", "cow").containsEntry("provider", "hudi")
        .doesNotContainKeys("primaryKey", "preCombineField");
  }

  @Test
  void aLongSchemaIsStoredInPartsOfTheThresholdsLengthAtCreateAndWholeUpToItAfterAnAlter() {
    CatalogHiveTables.Definition table = HiveTableRegistration.definition("default", "hudi_cow_pt_tbl", PT_COLUMNS,
        PT_CONFIG, PT_PROPERTIES, PT_LOCATION, true, "3.5.1", 100);
    String json = HiveTableRegistration.withMetaColumns(PT_COLUMNS).json();
    int parts = Integer.parseInt(table.properties().get("spark.sql.sources.schema.numParts"));

    assertThat(parts).isEqualTo((json.length() + 99) / 100).isGreaterThan(1);
    StringBuilder joined = new StringBuilder();
    for (int i = 0; i < parts; i++) {
      assertThat(table.properties().get("spark.sql.sources.schema.part." + i).length()).isLessThanOrEqualTo(100);
      joined.append(table.properties().get("spark.sql.sources.schema.part." + i));
    }
    assertThat(joined.toString()).isEqualTo(json);

    StructType schema = HiveTableRegistration.withMetaColumns(PT_COLUMNS);
    assertThat(HiveTableRegistration.schemaProperties(schema, List.of("dt", "hh"), 4000))
        .containsExactlyInAnyOrderEntriesOf(Map.of("spark.sql.sources.schema", json,
            "spark.sql.sources.schema.numPartCols", "2", "spark.sql.sources.schema.partCol.0", "dt",
            "spark.sql.sources.schema.partCol.1", "hh"));
    assertThat(HiveTableRegistration.schemaProperties(schema, List.of(), 100)).containsKey("spark.sql.sources.schema.numParts")
        .doesNotContainKey("spark.sql.sources.schema");
  }
}
