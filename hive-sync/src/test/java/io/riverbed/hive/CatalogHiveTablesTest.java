package io.riverbed.hive;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.hive.CatalogHiveTables.Column;
import io.riverbed.hive.testing.MetastoreExtension;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Hive tables a SQL catalog keeps for Hudi tables, in a real metastore: a new one holds what Hudi
 * 0.15's catalog left in one for the seeds' {@code CREATE TABLE hudi_cow_pt_tbl ... PARTITIONED BY (dt, hh)
 * LOCATION '...'} (Hive's empty-table layout, columns without comments, Hudi's formats), and renames,
 * property changes and new columns change what Spark's catalog changes.
 */
class CatalogHiveTablesTest {
  @RegisterExtension
  static final MetastoreExtension metastore = new MetastoreExtension();

  static final List<Column> COLUMNS = List.of(new Column("_hoodie_commit_time", "string"), new Column("id", "bigint"),
      new Column("name", "string"));

  static MetastoreClient client() {
    return MetastoreClient.connect(metastore.uri(), new Configuration());
  }

  static List<String> described(List<FieldSchema> fields) {
    return fields.stream().map(f -> f.getName() + " " + f.getType() + " " + f.getComment()).toList();
  }

  @Test
  void aNewTableIsTheHiveTableHudisCatalogRegisters() throws Exception {
    String location = "file:" + Files.createTempDirectory("catalog-hive").resolve("hudi_cow_pt_tbl");
    try (MetastoreClient client = client()) {
      CatalogHiveTables.create(client, new CatalogHiveTables.Definition("default", "hudi_cow_pt_tbl", true, location,
          COLUMNS, List.of(new Column("dt", "string"), new Column("hh", "string")),
          HiveTableDefinition.READ_OPTIMIZED_INPUT_FORMAT, Map.of("provider", "hudi", "type", "cow")));
      Table table = client.getTable("default", "hudi_cow_pt_tbl");

      assertThat(table.getTableType()).isEqualTo("EXTERNAL_TABLE");
      assertThat(table.getOwner()).isEqualTo(HiveTableDefinition.currentUser());
      assertThat(described(table.getSd().getCols()))
          .containsExactly("_hoodie_commit_time string null", "id bigint null", "name string null");
      assertThat(described(table.getPartitionKeys())).containsExactly("dt string null", "hh string null");
      assertThat(table.getSd().getInputFormat()).isEqualTo("org.apache.hudi.hadoop.HoodieParquetInputFormat");
      assertThat(table.getSd().getOutputFormat())
          .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
      assertThat(table.getSd().getSerdeInfo().getSerializationLib())
          .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
      assertThat(table.getSd().getSerdeInfo().getName()).isNull();
      assertThat(table.getSd().getSerdeInfo().getParameters())
          .containsExactlyInAnyOrderEntriesOf(Map.of("path", location, "serialization.format", "1"));
      assertThat(table.getSd().getLocation()).isEqualTo(location);
      assertThat(table.getSd().getBucketCols()).isEmpty();
      assertThat(table.getSd().getNumBuckets()).isEqualTo(-1);
      assertThat(table.getParameters()).containsEntry("EXTERNAL", "TRUE").containsEntry("provider", "hudi")
          .containsEntry("type", "cow");
    }
  }

  @Test
  void renamesPropertiesAndColumnsChangeAsSparksCatalogChangesThem() throws Exception {
    metastore.client().createDatabase(new org.apache.hadoop.hive.metastore.api.Database("sales",
        null, Files.createTempDirectory("catalog-hive-db").toUri().toString(), null));
    String warehouse = metastore.client().getDatabase("sales").getLocationUri();
    try (MetastoreClient client = client()) {
      CatalogHiveTables.create(client, new CatalogHiveTables.Definition("sales", "orders", false, warehouse + "/orders",
          COLUMNS, List.of(), HiveTableDefinition.READ_OPTIMIZED_INPUT_FORMAT, Map.of("provider", "hudi",
              "spark.sql.sources.schema.numParts", "1", "spark.sql.sources.schema.part.0", "{old}")));

      CatalogHiveTables.rename(client, "sales", "orders", "orders2", warehouse + "/orders2");
      assertThat(client.tableExists("sales", "orders")).isFalse();
      Table renamed = client.getTable("sales", "orders2");
      assertThat(renamed.getSd().getSerdeInfo().getParameters()).containsEntry("path", warehouse + "/orders2");
      assertThat(renamed.getSd().getLocation()).endsWith("/orders2");

      CatalogHiveTables.alterProperties(client, "sales", "orders2", Map.of("hoodie.keep.max.commits", "10"),
          List.of("provider"));
      assertThat(client.getTable("sales", "orders2").getParameters()).containsEntry("hoodie.keep.max.commits", "10")
          .containsEntry("spark.sql.partitionProvider", "filesystem").doesNotContainKey("provider");

      CatalogHiveTables.alterDataColumns(client, "sales", "orders2",
          List.of(COLUMNS.get(0), COLUMNS.get(1), COLUMNS.get(2), new Column("remark", "string")),
          Map.of("spark.sql.sources.schema", "{new}"));
      Table altered = client.getTable("sales", "orders2");
      assertThat(described(altered.getSd().getCols())).containsExactly("_hoodie_commit_time string null", "id bigint null",
          "name string null", "remark string null");
      assertThat(altered.getParameters()).containsEntry("spark.sql.sources.schema", "{new}")
          .doesNotContainKeys("spark.sql.sources.schema.numParts", "spark.sql.sources.schema.part.0")
          .containsEntry("hoodie.keep.max.commits", "10");
    }
  }
}
