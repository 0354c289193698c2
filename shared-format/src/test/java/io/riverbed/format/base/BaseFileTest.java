package io.riverbed.format.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.record.KeyGeneratorOptions;
import io.riverbed.format.record.TableSchemas;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.bloom.Key;
import org.apache.hadoop.util.hash.Hash;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaseFileTest {
  private static final Schema DECIMAL = LogicalTypes.decimal(12, 3)
      .addToSchema(Schema.createFixed("amount_fixed", null, "hoodie.trips", 6));
  private static final Schema USER = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
      .optionalString("id")
      .optionalString("city")
      .name("ts").type().optional().type(LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG)))
      .name("day").type().optional().type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT)))
      .name("amount").type().optional().type(DECIMAL)
      .name("tags").type().optional().array().items().stringType()
      .endRecord();
  private static final Schema SCHEMA = TableSchemas.addMetaFields(USER);
  private static final String INSTANT = "20250101000000000";
  private static final KeyGenerator KEYS =
      KeyGenerator.of(KeyGeneratorOptions.of(List.of("id"), List.of("city")));

  @TempDir
  File dir;

  private final Configuration conf = new Configuration();

  private GenericRecord record(int i, String fileName) {
    var r = new GenericData.Record(SCHEMA);
    r.put("id", String.format("key-%03d", i));
    r.put("city", i % 2 == 0 ? "paris" : "berlin");
    r.put("ts", 1_700_000_000_000_000L + i);
    r.put("day", (int) LocalDate.of(2024, 1, 1).toEpochDay() + i);
    r.put("amount", new Conversions.DecimalConversion().toFixed(new BigDecimal("12.345").add(BigDecimal.valueOf(i)),
        DECIMAL, DECIMAL.getLogicalType()));
    r.put("tags", List.of("a" + i, "b"));
    var key = KEYS.key(r);
    r.put("_hoodie_commit_time", INSTANT);
    r.put("_hoodie_commit_seqno", INSTANT + "_0_" + i);
    r.put("_hoodie_record_key", key.recordKey());
    r.put("_hoodie_partition_path", key.partitionPath());
    r.put("_hoodie_file_name", fileName);
    return r;
  }

  private BaseFileWriter.Result writeFile(Path path, BaseFileOptions options, List<Integer> ids) {
    try (var writer = BaseFileWriter.create(conf, path, SCHEMA, options)) {
      for (int i : ids) {
        writer.write(record(i, path.getName()));
      }
      return writer.finish();
    }
  }

  private Path path(String name) {
    return new Path(new File(dir, name).toURI());
  }

  @Test
  void roundTripKeepsMetaColumnsAndLogicalTypeValues() {
    Path path = path("f1-0_0-1-1_" + INSTANT + ".parquet");
    var result = writeFile(path, BaseFileOptions.defaults(), List.of(3, 1, 2));
    assertThat(result.recordCount()).isEqualTo(3);
    assertThat(result.fileSizeBytes()).isEqualTo(new File(dir, path.getName()).length()).isPositive();

    var reader = BaseFileReader.open(conf, path);
    assertThat(reader.recordCount()).isEqualTo(3);
    assertThat(reader.avroSchema()).isEqualTo(SCHEMA);
    var read = new ArrayList<GenericRecord>();
    try (var records = reader.records()) {
      records.forEachRemaining(read::add);
    }
    assertThat(read).hasSize(3);
    GenericRecord first = read.get(0);
    assertThat(first.get("_hoodie_commit_time").toString()).isEqualTo(INSTANT);
    assertThat(first.get("_hoodie_commit_seqno").toString()).isEqualTo(INSTANT + "_0_3");
    assertThat(first.get("_hoodie_record_key").toString()).isEqualTo("key-003");
    assertThat(first.get("_hoodie_partition_path").toString()).isEqualTo("berlin");
    assertThat(first.get("_hoodie_file_name").toString()).isEqualTo(path.getName());
    assertThat(first.get("ts")).isEqualTo(1_700_000_000_000_003L);
    assertThat(first.get("day")).isEqualTo((int) LocalDate.of(2024, 1, 4).toEpochDay());
    assertThat(new Conversions.DecimalConversion().fromFixed((GenericData.Fixed) first.get("amount"), DECIMAL,
        DECIMAL.getLogicalType())).isEqualTo(new BigDecimal("15.345"));
    assertThat(first.get("tags").toString()).isEqualTo("[a3, b]");
    assertThat(reader.readRecordKeys()).containsExactly("key-003", "key-001", "key-002");
  }

  @Test
  void parquetSchemaFollowsHudiConventions() throws IOException {
    Path path = path("f2.parquet");
    writeFile(path, BaseFileOptions.defaults(), List.of(1));
    MessageType parquet = BaseFileReader.open(conf, path).parquetSchema();
    assertThat(parquet.getName()).isEqualTo("hoodie.trips.trips_record");
    PrimitiveType commitTime = parquet.getType("_hoodie_commit_time").asPrimitiveType();
    assertThat(commitTime.isRepetition(org.apache.parquet.schema.Type.Repetition.OPTIONAL)).isTrue();
    assertThat(commitTime.getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.stringType());
    PrimitiveType ts = parquet.getType("ts").asPrimitiveType();
    assertThat(ts.getPrimitiveTypeName()).isEqualTo(PrimitiveType.PrimitiveTypeName.INT64);
    assertThat(ts.getLogicalTypeAnnotation())
        .isEqualTo(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS));
    PrimitiveType day = parquet.getType("day").asPrimitiveType();
    assertThat(day.getPrimitiveTypeName()).isEqualTo(PrimitiveType.PrimitiveTypeName.INT32);
    assertThat(day.getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.dateType());
    PrimitiveType amount = parquet.getType("amount").asPrimitiveType();
    assertThat(amount.getPrimitiveTypeName()).isEqualTo(PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
    assertThat(amount.getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.decimalType(3, 12));
    // parquet-avro's default two-level list, which Hudi 0.15's Avro writer keeps
    assertThat(parquet.getType("tags").asGroupType().getType(0).getName()).isEqualTo("array");

    try (var file = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
      assertThat(file.getRowGroups().get(0).getColumns().get(0).getCodec()).isEqualTo(CompressionCodecName.GZIP);
    }
  }

  @Test
  void threeLevelListsWhenOldListStructureIsOff() {
    Path path = path("f3.parquet");
    writeFile(path, BaseFileOptions.defaults().withWriteOldListStructure(false), List.of(1));
    var reader = BaseFileReader.open(conf, path);
    assertThat(reader.parquetSchema().getType("tags").asGroupType().getType(0).getName()).isEqualTo("list");
    try (var records = reader.records()) {
      assertThat(records.next().get("tags").toString()).isEqualTo("[a1, b]");
    }
  }

  @Test
  void footerHoldsBloomFilterTypeAndKeyRange() {
    Path path = path("f4.parquet");
    var ids = List.of(5, 42, 7, 19);
    var result = writeFile(path, BaseFileOptions.defaults(), ids);
    assertThat(result.minRecordKey()).isEqualTo("key-005");
    assertThat(result.maxRecordKey()).isEqualTo("key-042");

    var reader = BaseFileReader.open(conf, path);
    Map<String, String> footer = reader.footer();
    assertThat(footer).containsEntry("hoodie_bloom_filter_type_code", "DYNAMIC_V0")
        .containsEntry("hoodie_min_record_key", "key-005")
        .containsEntry("hoodie_max_record_key", "key-042")
        .containsEntry("writer.model.name", "avro")
        .containsKey("parquet.avro.schema")
        .containsKey("org.apache.hudi.bloomfilter");
    assertThat(reader.keyRange()).contains(new BaseFileReader.KeyRange("key-005", "key-042"));

    // the footer value decodes with Hadoop's own dynamic filter into the same bits
    var hadoop = new org.apache.hadoop.util.bloom.DynamicBloomFilter(2_587_966, 30, Hash.MURMUR_HASH, 60_000);
    for (int id : ids) {
      hadoop.add(new Key(String.format("key-%03d", id).getBytes(StandardCharsets.UTF_8)));
    }
    BloomFilter bloom = reader.bloomFilter().orElseThrow();
    assertThat(bloom.type()).isEqualTo(BloomFilterType.DYNAMIC_V0);
    assertThat(bloom.serializeToString()).isEqualTo(footer.get("org.apache.hudi.bloomfilter"));
    assertThat(bloom.toBytes()).isEqualTo(writable(hadoop));
    for (int id : ids) {
      assertThat(reader.mightContain(String.format("key-%03d", id))).isTrue();
    }
    assertThat(reader.mightContain("key-006")).isFalse();
    assertThat(reader.mightContain("key-999")).as("outside key range").isFalse();
  }

  @Test
  void simpleBloomFilterHasNoTypeCodeInFooter() {
    Path path = path("f5.parquet");
    writeFile(path, BaseFileOptions.defaults().withBloomFilter(BloomFilterType.SIMPLE, 1000, 1e-6, 0), List.of(1, 2));
    var reader = BaseFileReader.open(conf, path);
    assertThat(reader.footer()).doesNotContainKey("hoodie_bloom_filter_type_code");
    assertThat(reader.bloomFilter().orElseThrow().type()).isEqualTo(BloomFilterType.SIMPLE);
    assertThat(reader.mightContain("key-002")).isTrue();
  }

  @Test
  void emptyFileHasBloomFilterButNoKeyRange() {
    Path path = path("f6.parquet");
    var result = writeFile(path, BaseFileOptions.defaults(), List.of());
    assertThat(result.recordCount()).isZero();
    var reader = BaseFileReader.open(conf, path);
    assertThat(reader.footer()).containsKey("org.apache.hudi.bloomfilter").doesNotContainKey("hoodie_min_record_key");
    assertThat(reader.keyRange()).isEmpty();
  }

  @Test
  void keysAndSequenceNumbersAreWrittenWithoutADictionaryTheOtherColumnsWithOne() throws IOException {
    Path path = path("f-dict.parquet");
    writeFile(path, BaseFileOptions.defaults(), java.util.stream.IntStream.range(0, 200).boxed().toList());
    Map<String, Boolean> dictionaryByColumn = new java.util.TreeMap<>();
    try (var file = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
      file.getRowGroups().get(0).getColumns().forEach(c -> dictionaryByColumn.put(c.getPath().toDotString(),
          c.hasDictionaryPage()));
    }
    assertThat(dictionaryByColumn).containsEntry("_hoodie_record_key", false)
        .containsEntry("_hoodie_commit_seqno", false)
        .containsEntry("_hoodie_commit_time", true)
        .containsEntry("_hoodie_file_name", true)
        .containsEntry("city", true);
    try (var records = BaseFileReader.open(conf, path).records()) {
      assertThat(records.next().get("_hoodie_record_key").toString()).isEqualTo(record(0, "").get("_hoodie_record_key"));
    }
  }

  @Test
  void snappyCompressionIsConfigurable() throws IOException {
    Path path = path("f7.parquet");
    var options = BaseFileOptions.fromMap(Map.of("hoodie.parquet.compression.codec", "snappy",
        "hoodie.parquet.block.size", "1048576", "hoodie.parquet.page.size", "65536"));
    writeFile(path, options, List.of(1, 2, 3));
    try (var file = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
      assertThat(file.getRowGroups().get(0).getColumns().get(0).getCodec()).isEqualTo(CompressionCodecName.SNAPPY);
    }
    try (var records = BaseFileReader.open(conf, path).records()) {
      assertThat(records.next().get("id").toString()).isEqualTo("key-001");
    }
  }

  @Test
  void parquetFilterDropsRecordsThatFailIt() {
    Path path = path("filtered.parquet");
    writeFile(path, BaseFileOptions.defaults(), List.of(1, 2, 3, 4));
    var filter = org.apache.parquet.filter2.compat.FilterCompat.get(
        org.apache.parquet.filter2.predicate.FilterApi.eq(org.apache.parquet.filter2.predicate.FilterApi.binaryColumn("city"),
            org.apache.parquet.io.api.Binary.fromString("paris")));
    List<String> keys = new ArrayList<>();
    try (var records = BaseFileReader.open(conf, path).records(SCHEMA, filter)) {
      records.forEachRemaining(r -> keys.add(r.get("id").toString()));
    }
    assertThat(keys).containsExactly("key-002", "key-004");
  }

  @Test
  void projectionReadsRequestedColumnsAndDefaultsNewFields() {
    Path path = path("f8.parquet");
    writeFile(path, BaseFileOptions.defaults(), List.of(1, 2));
    Schema reader = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
        .optionalString("_hoodie_record_key")
        .optionalString("city")
        .optionalString("added_later")
        .endRecord();
    try (var records = BaseFileReader.open(conf, path).records(reader)) {
      GenericRecord r = records.next();
      assertThat(r.getSchema()).isEqualTo(reader);
      assertThat(r.get("_hoodie_record_key").toString()).isEqualTo("key-001");
      assertThat(r.get("city").toString()).isEqualTo("berlin");
      assertThat(r.get("added_later")).isNull();
    }
  }

  @Test
  void convertedLogicalValuesAreAcceptedByTheWriter() {
    Path path = path("f9.parquet");
    try (var writer = BaseFileWriter.create(conf, path, SCHEMA, BaseFileOptions.defaults())) {
      GenericRecord r = record(1, path.getName());
      r.put("ts", Instant.ofEpochSecond(1_700_000_000L, 5_000));
      r.put("day", LocalDate.of(2024, 2, 29));
      r.put("amount", new BigDecimal("1.500"));
      writer.write(r);
    }
    try (var records = BaseFileReader.open(conf, path).records()) {
      GenericRecord r = records.next();
      assertThat(r.get("ts")).isEqualTo(1_700_000_000_000_005L);
      assertThat(r.get("day")).isEqualTo((int) LocalDate.of(2024, 2, 29).toEpochDay());
    }
  }

  @Test
  void fileWithoutAvroSchemaFooterGetsSchemaFromParquetSchema() throws IOException {
    // a plain parquet file as Spark writes it: no parquet.avro.schema
    Path path = path("spark.parquet");
    MessageType spark = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message spark_schema { optional binary _hoodie_record_key (STRING); optional int64 ts; }");
    var factory = new org.apache.parquet.example.data.simple.SimpleGroupFactory(spark);
    var exampleConf = new Configuration();
    org.apache.parquet.hadoop.example.GroupWriteSupport.setSchema(spark, exampleConf);
    try (var writer = org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(path).withConf(exampleConf)
        .withType(spark).build()) {
      writer.write(factory.newGroup().append("_hoodie_record_key", "k1").append("ts", 7L));
    }
    var reader = BaseFileReader.open(conf, path);
    assertThat(reader.footer()).doesNotContainKey("parquet.avro.schema");
    assertThat(reader.avroSchema().getName()).isEqualTo("spark_schema");
    assertThat(reader.avroSchema().getField("ts")).isNotNull();
    assertThat(reader.bloomFilter()).isEmpty();
    assertThat(reader.mightContain("anything")).isTrue();
    assertThat(reader.readRecordKeys()).containsExactly("k1");
  }

  @Test
  void recordWithoutKeyIsRejectedNamingTheFile() {
    Path path = path("f10.parquet");
    try (var writer = BaseFileWriter.create(conf, path, SCHEMA, BaseFileOptions.defaults())) {
      GenericRecord r = record(1, path.getName());
      r.put("_hoodie_record_key", null);
      assertThatThrownBy(() -> writer.write(r))
          .isInstanceOf(InvalidRecordException.class)
          .hasMessageContaining("f10.parquet")
          .hasMessageContaining("_hoodie_record_key");
      writer.abort();
    }
    assertThat(new File(dir, "f10.parquet")).doesNotExist();
  }

  @Test
  void schemaWithoutMetaFieldsIsRejected() {
    assertThatThrownBy(() -> BaseFileWriter.create(conf, path("f11.parquet"), USER, BaseFileOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("meta fields");
  }

  @Test
  void existingFileIsNotOverwritten() {
    Path path = path("f12.parquet");
    writeFile(path, BaseFileOptions.defaults(), List.of(1));
    assertThatThrownBy(() -> BaseFileWriter.create(conf, path, SCHEMA, BaseFileOptions.defaults()))
        .isInstanceOf(TableException.class).hasMessageContaining("f12.parquet");
  }

  @Test
  void withoutMetaFieldsNoBloomFilterIsWritten() {
    Path path = path("f13.parquet");
    try (var writer = BaseFileWriter.create(conf, path, USER,
        BaseFileOptions.defaults().withPopulateMetaFields(false))) {
      var r = new GenericData.Record(USER);
      r.put("id", "x");
      writer.write(r);
    }
    var reader = BaseFileReader.open(conf, path);
    assertThat(reader.bloomFilter()).isEmpty();
    assertThat(reader.keyRange()).isEmpty();
  }

  private static byte[] writable(org.apache.hadoop.io.Writable w) {
    var bytes = new java.io.ByteArrayOutputStream();
    try (var out = new java.io.DataOutputStream(bytes)) {
      w.write(out);
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
    return bytes.toByteArray();
  }
}
