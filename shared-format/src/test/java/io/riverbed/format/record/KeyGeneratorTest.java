package io.riverbed.format.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.InvalidTableException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class KeyGeneratorTest {
  private static final Schema ADDRESS = SchemaBuilder.record("address").fields()
      .optionalString("city")
      .optionalString("zip")
      .endRecord();
  private static final Schema DECIMAL = LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES));
  private static final Schema DATE = LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
  private static final Schema TS = LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
  private static final Schema SCHEMA = SchemaBuilder.record("trips").namespace("test").fields()
      .optionalString("id")
      .optionalString("name")
      .optionalLong("seq")
      .optionalString("region")
      .optionalString("dt")
      .name("address").type().optional().type(ADDRESS)
      .name("amount").type().optional().type(DECIMAL)
      .name("day").type().optional().type(DATE)
      .name("ts").type().optional().type(TS)
      .endRecord();

  private static GenericRecord record(Object... nameValues) {
    var record = new GenericData.Record(SCHEMA);
    for (int i = 0; i < nameValues.length; i += 2) {
      record.put((String) nameValues[i], nameValues[i + 1]);
    }
    return record;
  }

  private static KeyGenerator keys(List<String> keyFields, List<String> partitionFields) {
    return KeyGenerator.of(KeyGeneratorOptions.of(keyFields, partitionFields));
  }

  @Test
  void simpleKeyIsTheFieldValueAsString() {
    var gen = keys(List.of("id"), List.of("dt"));
    var key = gen.key(record("id", new Utf8("uuid-1"), "dt", "2024-01-01"));
    assertThat(key).isEqualTo(new KeyGenerator.Key("uuid-1", "2024-01-01"));
    assertThat(gen.type()).isEqualTo(KeyGeneratorType.SIMPLE);
    assertThat(gen.className()).isEqualTo("org.apache.hudi.keygen.SimpleKeyGenerator");
  }

  @Test
  void simpleKeyOfLongFieldIsItsDecimalText() {
    var gen = keys(List.of("seq"), List.of("dt"));
    assertThat(gen.recordKey(record("seq", 42L))).isEqualTo("42");
  }

  @Test
  void nullSimpleKeyFailsNamingFieldAndShowingRecord() {
    var gen = keys(List.of("id"), List.of("dt"));
    assertThatThrownBy(() -> gen.recordKey(record("name", "Alice")))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("'id'")
        .hasMessageContaining("null")
        .hasMessageContaining("Alice");
  }

  @Test
  void emptySimpleKeyFails() {
    var gen = keys(List.of("id"), List.of());
    assertThatThrownBy(() -> gen.recordKey(record("id", "")))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("'id' is empty");
  }

  @Test
  void errorMessageTruncatesLongRecords() {
    var gen = keys(List.of("id"), List.of());
    String longName = "x".repeat(5000);
    assertThatThrownBy(() -> gen.recordKey(record("name", longName)))
        .isInstanceOf(InvalidRecordException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(800).contains("(truncated)"));
  }

  @Test
  void complexKeyJoinsFieldNameValuePairs() {
    var gen = keys(List.of("id", "name"), List.of("dt"));
    assertThat(gen.recordKey(record("id", "1", "name", "Alice"))).isEqualTo("id:1,name:Alice");
    assertThat(gen.type()).isEqualTo(KeyGeneratorType.COMPLEX);
    assertThat(gen.className()).isEqualTo("org.apache.hudi.keygen.ComplexKeyGenerator");
  }

  @Test
  void complexKeyWritesPlaceholdersForNullAndEmptyValues() {
    var gen = keys(List.of("id", "name", "seq"), List.of("dt"));
    assertThat(gen.recordKey(record("id", "1", "name", ""))).isEqualTo("id:1,name:__empty__,seq:__null__");
  }

  @Test
  void complexKeyWithAllValuesNullOrEmptyFails() {
    var gen = keys(List.of("id", "name"), List.of("dt"));
    assertThatThrownBy(() -> gen.recordKey(record("name", "")))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("id:__null__,name:__empty__")
        .hasMessageContaining("[id, name]");
  }

  @Test
  void complexGeneratorWithOneKeyFieldWritesThePlainValueAsHudi015Does() {
    var gen = keys(List.of("id"), List.of("region", "dt"));
    assertThat(gen.type()).isEqualTo(KeyGeneratorType.COMPLEX);
    assertThat(gen.recordKey(record("id", "7", "region", "eu", "dt", "d"))).isEqualTo("7");
  }

  @Test
  void nestedFieldsAreReadThroughNestedRecords() {
    var address = new GenericData.Record(ADDRESS);
    address.put("city", "Paris");
    address.put("zip", "75001");
    var gen = keys(List.of("address.zip"), List.of("address.city"));
    var rec = record("address", address);
    assertThat(gen.key(rec)).isEqualTo(new KeyGenerator.Key("75001", "Paris"));
    assertThat(gen.type()).isEqualTo(KeyGeneratorType.SIMPLE);
  }

  @Test
  void nullNestedParentGivesDefaultPartitionAndNullKeyPart() {
    var gen = KeyGenerator.of(KeyGeneratorOptions.of(List.of("id", "address.zip"), List.of("address.city"))
        .withHiveStylePartitioning(true));
    var rec = record("id", "1");
    assertThat(gen.recordKey(rec)).isEqualTo("id:1,address.zip:__null__");
    assertThat(gen.partitionPath(rec)).isEqualTo("address.city=__HIVE_DEFAULT_PARTITION__");
  }

  @Test
  void multiLevelHiveStylePartitionPath() {
    var gen = KeyGenerator.of(KeyGeneratorOptions.of(List.of("id"), List.of("region", "dt", "name"))
        .withHiveStylePartitioning(true));
    assertThat(gen.partitionPath(record("id", "1", "region", "eu", "dt", "2024-01-01", "name", "")))
        .isEqualTo("region=eu/dt=2024-01-01/name=__HIVE_DEFAULT_PARTITION__");
  }

  @Test
  void plainMultiLevelPartitionPathJoinsValues() {
    var gen = keys(List.of("id"), List.of("seq", "region"));
    assertThat(gen.partitionPath(record("id", "1", "seq", 1L, "region", "x"))).isEqualTo("1/x");
    assertThat(gen.partitionPath(record("id", "1"))).isEqualTo("__HIVE_DEFAULT_PARTITION__/__HIVE_DEFAULT_PARTITION__");
  }

  @Test
  void urlEncodingEscapesHivePathCharacters() {
    var gen = KeyGenerator.of(KeyGeneratorOptions.of(List.of("id"), List.of("dt"))
        .withUrlEncodePartitionPath(true).withHiveStylePartitioning(true));
    assertThat(gen.partitionPath(record("id", "1", "dt", "2024/01/01 10:00")))
        .isEqualTo("dt=2024%2F01%2F01 10%3A00");
    assertThat(gen.partitionPath(record("id", "1", "dt", "a=b#c%d\u00e9"))).isEqualTo("dt=a%3Db%23c%25d\u00e9");
  }

  @Test
  void withoutUrlEncodingSlashesStayAndNestFolders() {
    var gen = keys(List.of("id"), List.of("dt"));
    assertThat(gen.partitionPath(record("id", "1", "dt", "2024/01/01"))).isEqualTo("2024/01/01");
  }

  @Test
  void nonPartitionedTableHasEmptyPartitionPath() {
    var gen = keys(List.of("id"), List.of());
    assertThat(gen.key(record("id", "1"))).isEqualTo(new KeyGenerator.Key("1", ""));
    assertThat(gen.className()).isEqualTo("org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    assertThat(keys(List.of("id", "name"), List.of()).recordKey(record("id", "1", "name", "n")))
        .isEqualTo("id:1,name:n");
  }

  @Test
  void logicalTypesFormatAsHudiDoes() {
    var amount = new Conversions.DecimalConversion().toBytes(new BigDecimal("12.30"), DECIMAL, DECIMAL.getLogicalType());
    var gen = keys(List.of("amount", "ts"), List.of("day"));
    var rec = record("amount", amount, "day", (int) LocalDate.of(2024, 3, 5).toEpochDay(), "ts", 1_700_000_000_000_000L);
    assertThat(gen.recordKey(rec)).isEqualTo("amount:12.30,ts:1700000000000000");
    assertThat(gen.partitionPath(rec)).isEqualTo("2024-03-05");
    assertThat(((ByteBuffer) rec.get("amount")).remaining()).as("buffer not consumed").isGreaterThan(0);
  }

  @Test
  void missingFieldFailsNamingFieldAndSchema() {
    var gen = keys(List.of("nope"), List.of("dt"));
    assertThatThrownBy(() -> gen.recordKey(record("id", "1")))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("record key field 'nope'")
        .hasMessageContaining("test.trips")
        .hasMessageContaining("address.city");
    var partition = keys(List.of("id"), List.of("address.country"));
    assertThatThrownBy(() -> partition.partitionPath(record("id", "1")))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("partition path field 'address.country'");
  }

  @Test
  void positionsAreResolvedOncePerSchema() {
    var gen = keys(List.of("id"), List.of("dt"));
    assertThat(gen.forSchema(SCHEMA)).isSameAs(gen.forSchema(SCHEMA));
    var other = SchemaBuilder.record("other").fields().optionalString("dt").optionalString("id").endRecord();
    var rec = new GenericData.Record(other);
    rec.put("id", "9");
    rec.put("dt", "d");
    assertThat(gen.key(rec)).isEqualTo(new KeyGenerator.Key("9", "d"));
    assertThat(gen.key(record("id", "1", "dt", "x"))).isEqualTo(new KeyGenerator.Key("1", "x"));
  }

  @Test
  void optionsAreReadFromHudiKeys() {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("hoodie.datasource.write.recordkey.field", " id , name ");
    conf.put("hoodie.datasource.write.partitionpath.field", "region,dt");
    conf.put("hoodie.datasource.write.hive_style_partitioning", "true");
    conf.put("hoodie.datasource.write.partitionpath.urlencode", "true");
    var options = KeyGeneratorOptions.fromMap(conf);
    assertThat(options.recordKeyFields()).containsExactly("id", "name");
    assertThat(options.partitionFields()).containsExactly("region", "dt");
    assertThat(options.hiveStylePartitioning()).isTrue();
    assertThat(options.urlEncodePartitionPath()).isTrue();
    assertThat(options.type()).isEqualTo(KeyGeneratorType.COMPLEX);
  }

  @Test
  void optionsFallBackToTableConfigAndHonourExplicitClass() {
    var options = KeyGeneratorOptions.fromMap(Map.of(
        "hoodie.table.recordkey.fields", "id",
        "hoodie.table.partition.fields", "dt",
        "hoodie.table.keygenerator.class", "org.apache.hudi.keygen.ComplexAvroKeyGenerator"));
    assertThat(options.type()).isEqualTo(KeyGeneratorType.COMPLEX);
    assertThat(KeyGenerator.of(options).recordKey(record("id", "5", "dt", "x"))).isEqualTo("5");
  }

  @Test
  void unsupportedKeyGeneratorsAreRejected() {
    assertThatThrownBy(() -> KeyGeneratorOptions.fromMap(Map.of(
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.TimestampBasedKeyGenerator")))
        .isInstanceOf(InvalidTableException.class).hasMessageContaining("TimestampBasedKeyGenerator");
    assertThatThrownBy(() -> KeyGeneratorOptions.of(List.of("id"), List.of("dt:SIMPLE")))
        .isInstanceOf(InvalidTableException.class);
  }

  @Test
  void withoutRecordKeyFieldsKeysAreGeneratedAndTheKeyGeneratorIsInferredFromThePartitionFields() {
    KeyGeneratorOptions unpartitioned = KeyGeneratorOptions.fromMap(Map.of());
    assertThat(unpartitioned.generatesKeys()).isTrue();
    assertThat(unpartitioned.type()).isEqualTo(KeyGeneratorType.NON_PARTITION);
    assertThat(unpartitioned.toMap()).doesNotContainKeys("hoodie.datasource.write.recordkey.field",
        "hoodie.table.recordkey.fields");
    assertThat(KeyGeneratorOptions.of(List.of(), List.of("dt")).type()).isEqualTo(KeyGeneratorType.SIMPLE);
    assertThat(KeyGeneratorOptions.of(List.of(), List.of("region", "dt")).type()).isEqualTo(KeyGeneratorType.COMPLEX);
    var gen = KeyGenerator.of(KeyGeneratorOptions.of(List.of(), List.of("dt")));
    assertThat(gen.partitionPath(record("id", "1", "dt", "2024"))).isEqualTo("2024");
    assertThatThrownBy(() -> gen.recordKey(record("id", "1", "dt", "2024")))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("has no record key field");
  }

  @Test
  void generatedKeysAreTheInstantTheTaskAndTheRowCountedFromZero() {
    GeneratedRecordKeys keys = GeneratedRecordKeys.of("20240101000000000", 3);
    assertThat(List.of(keys.next(), keys.next())).containsExactly("20240101000000000_3_0", "20240101000000000_3_1");
  }

  @Test
  void partitionValuesAreRecoveredFromThePath() {
    var hive = KeyGenerator.of(KeyGeneratorOptions.of(List.of("id"), List.of("region", "dt"))
        .withHiveStylePartitioning(true).withUrlEncodePartitionPath(true));
    var rec = record("id", "1", "region", "e/u", "dt", null);
    String path = hive.partitionPath(rec);
    assertThat(path).isEqualTo("region=e%2Fu/dt=__HIVE_DEFAULT_PARTITION__");
    Map<String, String> values = hive.partitionValues(path);
    assertThat(values.keySet()).containsExactly("region", "dt");
    assertThat(values).containsEntry("region", "e/u").containsEntry("dt", null);
    assertThat(keys(List.of("id"), List.of("dt")).partitionValues("2024/01/01")).containsEntry("dt", "2024/01/01");
    assertThat(keys(List.of("id"), List.of("a", "b")).partitionValues("1/x"))
        .containsExactly(Map.entry("a", "1"), Map.entry("b", "x"));
    assertThat(keys(List.of("id"), List.of()).partitionValues("")).isEmpty();
  }

  @Test
  void recordKeyValuesReadBackWhatTheKeyWasMadeOf() {
    var single = keys(List.of("id"), List.of("dt"));
    assertThat(single.recordKeyValues("a:b,c")).containsExactly(Map.entry("id", "a:b,c"));
    var complex = keys(List.of("id", "name"), List.of("dt"));
    String key = complex.recordKey(record("id", new Utf8("u,1"), "name", ""));
    assertThat(complex.recordKeyValues(key)).containsExactly(Map.entry("id", "u,1"), Map.entry("name", ""));
    var withNull = new java.util.HashMap<String, String>();
    withNull.put("id", "7");
    withNull.put("name", null);
    assertThat(complex.recordKeyValues(complex.recordKey(record("id", new Utf8("7"))))).isEqualTo(withNull);
    assertThatThrownBy(() -> complex.recordKeyValues("id:7"))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("'name'");
  }
}
