package io.riverbed.format.base;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.record.KeyGeneratorType;
import io.riverbed.format.record.TableSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Golden test against a base file written by Apache Hudi (table version 6, Spark datasource,
 * ComplexKeyGenerator over {@code id,name}, hive-style partitions {@code byteField/shortField}),
 * taken from apache/hudi-rs test data ({@code crates/test/data/sample_table/cow/v6_complexkeygen_hivestyle.zip}).
 */
class HudiWrittenBaseFileTest {
  private static final String DIR = "/golden/v6_complexkeygen_hivestyle/";
  private static final String FILE = "a22e8257-e249-45e9-ba46-115bc85adcba-0_1-140-199_20240418173213674.parquet";

  private final Configuration conf = new Configuration();

  private static Map<String, String> tableConfig() throws IOException {
    var props = new Properties();
    try (InputStream in = HudiWrittenBaseFileTest.class.getResourceAsStream(DIR + "hoodie.properties")) {
      props.load(in);
    }
    var map = new HashMap<String, String>();
    props.stringPropertyNames().forEach(name -> map.put(name, props.getProperty(name)));
    return map;
  }

  private BaseFileReader reader() throws URISyntaxException {
    return BaseFileReader.open(conf, new Path(getClass().getResource(DIR + FILE).toURI()));
  }

  @Test
  void keyGeneratorReproducesHudisRecordKeysAndPartitionPaths() throws Exception {
    KeyGenerator keys = KeyGenerator.fromMap(tableConfig());
    assertThat(keys.type()).isEqualTo(KeyGeneratorType.COMPLEX);
    assertThat(keys.options().hiveStylePartitioning()).isTrue();
    int count = 0;
    try (var records = reader().records()) {
      while (records.hasNext()) {
        GenericRecord record = records.next();
        var key = keys.key(record);
        assertThat(key.recordKey()).isEqualTo(record.get("_hoodie_record_key").toString());
        assertThat(key.partitionPath()).isEqualTo(record.get("_hoodie_partition_path").toString());
        assertThat(keys.partitionValues(key.partitionPath()))
            .containsEntry("byteField", record.get("byteField").toString())
            .containsEntry("shortField", record.get("shortField").toString());
        count++;
      }
    }
    assertThat(count).isPositive();
  }

  @Test
  void metaFieldHelpersReproduceHudisWriterSchemaJson() throws Exception {
    BaseFileReader reader = reader();
    var fileSchema = reader.avroSchema();
    var userSchema = TableSchemas.removeMetaFields(fileSchema);
    assertThat(userSchema.getFullName()).isEqualTo("hoodie.v6_complexkeygen_hivestyle.v6_complexkeygen_hivestyle_record");
    assertThat(TableSchemas.addMetaFields(userSchema).toString()).isEqualTo(reader.footer().get(FooterKeys.AVRO_SCHEMA));
    assertThat(TableSchemas.recordName("v6_complexkeygen_hivestyle")).isEqualTo(userSchema.getName());
    assertThat(TableSchemas.namespace("v6_complexkeygen_hivestyle")).isEqualTo(userSchema.getNamespace());
    assertThat(reader.parquetSchema().getName()).isEqualTo(fileSchema.getFullName());
  }

  @Test
  void bloomFilterDecodesReserializesIdenticallyAndContainsEveryKey() throws Exception {
    BaseFileReader reader = reader();
    Map<String, String> footer = reader.footer();
    assertThat(footer).containsEntry(FooterKeys.BLOOM_FILTER_TYPE_CODE, "DYNAMIC_V0");
    BloomFilter bloom = reader.bloomFilter().orElseThrow();
    assertThat(bloom).isInstanceOf(DynamicBloomFilter.class);
    var dynamic = (DynamicBloomFilter) bloom;
    assertThat(dynamic.vectorSize()).isEqualTo(2_587_966);
    assertThat(dynamic.hashCount()).isEqualTo(30);
    assertThat(dynamic.entriesPerRow()).isEqualTo(60_000);
    assertThat(dynamic.rowCount()).isEqualTo(1);
    assertThat(bloom.serializeToString()).isEqualTo(footer.get(FooterKeys.BLOOM_FILTER));

    List<String> keys = reader.readRecordKeys();
    assertThat(keys).isNotEmpty();
    keys.forEach(key -> assertThat(bloom.mightContain(key)).as(key).isTrue());

    // a filter we build from the same keys has the same bytes as Hudi's
    BloomFilter ours = BloomFilter.createDefault();
    keys.forEach(ours::add);
    assertThat(ours.serializeToString()).isEqualTo(footer.get(FooterKeys.BLOOM_FILTER));

    var sorted = new ArrayList<>(keys);
    sorted.sort(String::compareTo);
    assertThat(reader.keyRange()).contains(new BaseFileReader.KeyRange(sorted.get(0), sorted.get(sorted.size() - 1)));
  }
}
