package io.riverbed.format.base;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.TableSchemas;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaseFileRowsTest {
  private static final Schema DECIMAL = LogicalTypes.decimal(12, 3)
      .addToSchema(Schema.createFixed("fare_fixed", null, "hoodie.trips", 6));
  private static final Schema KIND = Schema.createEnum("kind", null, "hoodie.trips", List.of("A", "B"));
  private static final Schema USER = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
      .optionalString("id")
      .requiredString("city")
      .name("ts").type().optional().type(LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG)))
      .name("day").type().optional().type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT)))
      .name("fare").type().optional().type(DECIMAL)
      .optionalBytes("blob")
      .optionalDouble("lat")
      .optionalFloat("score")
      .optionalBoolean("paid")
      .name("kind").type().optional().type(KIND)
      .endRecord();
  private static final Schema SCHEMA = TableSchemas.addMetaFields(USER);

  @TempDir
  File dir;

  private final Configuration conf = new Configuration();

  /** Rows with nulls in every optional column now and then, and repeated values for the dictionaries. */
  private GenericRecord record(int i) {
    var r = new GenericData.Record(SCHEMA);
    String key = "key-" + (100_000 + i * 7919 % 100_000);
    r.put(MetaFields.COMMIT_TIME, "20250101000000000");
    r.put(MetaFields.COMMIT_SEQNO, "20250101000000000_0_" + i);
    r.put(MetaFields.RECORD_KEY, key);
    r.put(MetaFields.PARTITION_PATH, "paris");
    r.put(MetaFields.FILE_NAME, "f1_0-1-0_20250101000000000.parquet");
    r.put("id", i % 11 == 0 ? null : key);
    r.put("city", i % 3 == 0 ? "paris" : "berlin");
    r.put("ts", i % 13 == 0 ? null : 1_700_000_000_000_000L + i);
    r.put("day", i % 17 == 0 ? null : 19_000 + i % 40);
    r.put("fare", i % 5 == 0 ? null : new Conversions.DecimalConversion().toFixed(BigDecimal.valueOf(i, 3), DECIMAL,
        DECIMAL.getLogicalType()));
    r.put("blob", i % 7 == 0 ? null : ByteBuffer.wrap(new byte[] {(byte) i, 1, 2}));
    r.put("lat", i % 19 == 0 ? null : i / 3.0);
    r.put("score", i % 23 == 0 ? null : (float) (i % 50) / 7);
    r.put("paid", i % 29 == 0 ? null : i % 2 == 0);
    r.put("kind", i % 31 == 0 ? null : new GenericData.EnumSymbol(KIND, i % 2 == 0 ? "A" : "B"));
    return r;
  }

  private Path writeStored(int rows, BaseFileOptions options) {
    Path path = new Path(dir.getAbsolutePath(), "stored.parquet");
    try (var writer = BaseFileWriter.create(conf, path, SCHEMA, options)) {
      for (int i = 0; i < rows; i++) {
        writer.write(record(i));
      }
    }
    return path;
  }

  @Test
  void copiedRowsGiveTheBytesTheirAvroRecordsGive() throws IOException {
    // small pages and row groups: values cross page and row group boundaries on both sides
    BaseFileOptions options = BaseFileOptions.defaults().withSizes(64 * 1024, 4 * 1024);
    Path stored = writeStored(5_000, options);

    Path copied = new Path(dir.getAbsolutePath(), "copied.parquet");
    try (var writer = BaseFileWriter.create(conf, copied, SCHEMA, options);
        var rows = BaseFileRows.open(conf, stored, writer.parquetSchema(), SCHEMA, MetaFields.RECORD_KEY).orElseThrow()) {
      while (rows.next()) {
        writer.copy(rows.recordKey(), rows);
      }
    }
    Path rewritten = new Path(dir.getAbsolutePath(), "rewritten.parquet");
    try (var writer = BaseFileWriter.create(conf, rewritten, SCHEMA, options);
        var records = BaseFileReader.recordsToRewrite(conf, stored, SCHEMA)) {
      while (records.hasNext()) {
        GenericRecord record = records.next();
        writer.write(record.get(MetaFields.RECORD_KEY).toString(), record);
      }
    }

    assertThat(BaseFileReader.open(conf, copied).recordCount()).isEqualTo(5_000);
    assertThat(Files.readAllBytes(new File(dir, "copied.parquet").toPath()))
        .isEqualTo(Files.readAllBytes(new File(dir, "rewritten.parquet").toPath()));
  }

  @Test
  void rowValuesAreTheValuesTheRewriteReaderGives() {
    Path stored = writeStored(200, BaseFileOptions.defaults());
    var target = BaseFileWriter.create(conf, new Path(dir.getAbsolutePath(), "target.parquet"), SCHEMA,
        BaseFileOptions.defaults());
    List<String> mismatches = new ArrayList<>();
    try (var rows = BaseFileRows.open(conf, stored, target.parquetSchema(), SCHEMA, MetaFields.RECORD_KEY).orElseThrow();
        var records = BaseFileReader.recordsToRewrite(conf, stored, SCHEMA)) {
      while (records.hasNext()) {
        assertThat(rows.next()).isTrue();
        GenericRecord record = records.next();
        assertThat(rows.recordKey()).isEqualTo(record.get(MetaFields.RECORD_KEY).toString());
        for (Schema.Field field : SCHEMA.getFields()) {
          Object expected = record.get(field.pos());
          Object actual = rows.avroValue(field.name());
          if (!java.util.Objects.equals(expected, actual)
              || (expected != null && expected.getClass() != actual.getClass())) {
            mismatches.add(field.name() + ": " + expected + " vs " + actual);
          }
        }
      }
      assertThat(rows.next()).isFalse();
    } finally {
      target.abort();
    }
    assertThat(mismatches).isEmpty();
  }

  @Test
  void keysAreTheKeysOfTheRecordsInFileOrder() {
    Path stored = writeStored(5_000, BaseFileOptions.defaults().withSizes(64 * 1024, 4 * 1024));
    List<String> keys = new ArrayList<>();

    long rows = BaseFileRows.forEachKey(conf, stored, MetaFields.RECORD_KEY, keys::add);

    assertThat(rows).isEqualTo(5_000);
    assertThat(keys).isEqualTo(BaseFileReader.open(conf, stored).readRecordKeys());
  }

  @Test
  void filesWhoseColumnsDifferOrNestAreReadAsRecords() {
    Path stored = writeStored(10, BaseFileOptions.defaults());
    Schema wider = TableSchemas.addMetaFields(SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
        .optionalString("id").requiredString("city").optionalLong("extra").endRecord());
    var widerWriter = BaseFileWriter.create(conf, new Path(dir.getAbsolutePath(), "wider.parquet"), wider,
        BaseFileOptions.defaults());
    Schema nested = TableSchemas.addMetaFields(SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
        .optionalString("id").name("tags").type().optional().array().items().stringType().endRecord());
    var nestedWriter = BaseFileWriter.create(conf, new Path(dir.getAbsolutePath(), "nested.parquet"), nested,
        BaseFileOptions.defaults());
    try {
      Optional<BaseFileRows> widened = BaseFileRows.open(conf, stored, widerWriter.parquetSchema(), wider,
          MetaFields.RECORD_KEY);
      assertThat(widened).isEmpty();
      assertThat(BaseFileRows.open(conf, stored, nestedWriter.parquetSchema(), nested, MetaFields.RECORD_KEY)).isEmpty();
    } finally {
      widerWriter.abort();
      nestedWriter.abort();
    }
  }
}
