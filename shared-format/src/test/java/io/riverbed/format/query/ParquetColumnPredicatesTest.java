package io.riverbed.format.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.query.ColumnPredicate.And;
import io.riverbed.format.query.ColumnPredicate.Comparison;
import io.riverbed.format.query.ColumnPredicate.In;
import io.riverbed.format.query.ColumnPredicate.IsNotNull;
import io.riverbed.format.query.ColumnPredicate.IsNull;
import io.riverbed.format.query.ColumnPredicate.Not;
import io.riverbed.format.query.ColumnPredicate.Operator;
import io.riverbed.format.query.ColumnPredicate.Or;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column predicates evaluated on the statistics of a Parquet file of three row groups of ten rows
 * each (row {@code i} in group {@code i / 10}): a row group is skipped only when its min, max and
 * null count show that none of its rows passes, and a predicate part the file cannot express
 * never narrows the read.
 */
class ParquetColumnPredicatesTest {
  private static final LocalDate FIRST_DAY = LocalDate.of(2024, 1, 1);
  private static final Instant FIRST_AT = Instant.parse("2024-01-01T00:00:00Z");
  private static final Schema SCHEMA = SchemaBuilder.record("row").fields()
      .requiredLong("amount")
      .requiredString("name")
      .requiredDouble("price")
      .name("day").type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))).noDefault()
      .name("at").type(LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
      .optionalString("note")
      .optionalBoolean("flag")
      .endRecord();

  @TempDir
  static Path dir;
  private static BaseFileReader file;

  /** Group 0: note all null; group 1: note null in odd rows; group 2: no null note, flag all null. */
  @BeforeAll
  static void writeFile() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(dir.resolve("rows.parquet").toUri());
    try (ParquetWriter<GenericRecord> writer = AvroParquetWriter.<GenericRecord>builder(HadoopOutputFile.fromPath(path, conf))
        .withSchema(SCHEMA).withConf(conf).withRowGroupSize(1)
        .withMinRowCountForPageSizeCheck(10).withMaxRowCountForPageSizeCheck(10).build()) {
      for (int i = 0; i < 30; i++) {
        int group = i / 10;
        GenericRecord r = new GenericData.Record(SCHEMA);
        r.put("amount", (long) i);
        r.put("name", "n%02d".formatted(i));
        r.put("price", i * 1.5);
        r.put("day", (int) FIRST_DAY.plusDays(group).toEpochDay());
        r.put("at", FIRST_AT.plusSeconds(i).getEpochSecond() * 1_000_000L);
        r.put("note", group == 0 || (group == 1 && i % 2 == 1) ? null : "note" + i);
        r.put("flag", group == 2 ? null : i % 2 == 0);
        writer.write(r);
      }
    }
    file = BaseFileReader.open(conf, path);
  }

  private static int groupsRead(ColumnPredicate predicate) {
    Optional<FilterPredicate> parquet = ParquetColumnPredicates.forFile(predicate, file.parquetSchema());
    return parquet.map(file::rowGroupsMatching).orElse(file.rowGroupCount());
  }

  private static Comparison amount(Operator op, long value) {
    return new Comparison("amount", op, value);
  }

  @Test
  void theFileHasThreeRowGroups() {
    assertThat(file.rowGroupCount()).isEqualTo(3);
  }

  @Test
  void numberComparisonsSkipRowGroupsOutsideMinAndMax() {
    assertThat(groupsRead(amount(Operator.EQ, 15))).isEqualTo(1);
    assertThat(groupsRead(amount(Operator.LT, 10))).isEqualTo(1);
    assertThat(groupsRead(amount(Operator.LT_EQ, 10))).isEqualTo(2);
    assertThat(groupsRead(amount(Operator.GT, 29))).isZero();
    assertThat(groupsRead(amount(Operator.GT_EQ, 29))).isEqualTo(1);
    assertThat(groupsRead(amount(Operator.NOT_EQ, 5))).as("every group has other values").isEqualTo(3);
    assertThat(groupsRead(new In("amount", List.of(3L, 25L)))).isEqualTo(2);
    assertThat(groupsRead(new Comparison("price", Operator.GT, 40.0))).isEqualTo(1);
    assertThat(groupsRead(new Comparison("price", Operator.LT_EQ, 0.0))).isEqualTo(1);
  }

  @Test
  void aLiteralOfAnotherTypeThanTheColumnDoesNotPrune() {
    assertThat(groupsRead(new Comparison("amount", Operator.EQ, "15"))).as("a string literal for a long column").isEqualTo(3);
    assertThat(groupsRead(new Comparison("amount", Operator.EQ, 15))).as("an int literal widens to a long column").isEqualTo(1);
    assertThat(groupsRead(new Comparison("name", Operator.EQ, 15))).as("an int literal for a string column").isEqualTo(3);
    assertThat(groupsRead(new Comparison("price", Operator.GT, Double.NaN))).isEqualTo(3);
  }

  @Test
  void stringComparisonsUseLexicographicMinAndMax() {
    assertThat(groupsRead(new Comparison("name", Operator.EQ, "n15"))).isEqualTo(1);
    assertThat(groupsRead(new Comparison("name", Operator.GT_EQ, "n20"))).isEqualTo(1);
    assertThat(groupsRead(new Comparison("name", Operator.LT, "n"))).isZero();
    assertThat(groupsRead(new Comparison("name", Operator.EQ, "x"))).isZero();
  }

  @Test
  void datesAndTimestampsCompareInTheColumnsUnit() {
    assertThat(groupsRead(new Comparison("day", Operator.EQ, FIRST_DAY.plusDays(1)))).isEqualTo(1);
    assertThat(groupsRead(new Comparison("day", Operator.LT, FIRST_DAY.plusDays(2)))).isEqualTo(2);
    assertThat(groupsRead(new Comparison("at", Operator.GT_EQ, FIRST_AT.plusSeconds(20)))).isEqualTo(1);
    assertThat(groupsRead(new Comparison("at", Operator.LT, FIRST_AT.plusSeconds(10)))).isEqualTo(1);
    assertThat(groupsRead(new Comparison("at", Operator.LT, FIRST_AT.plusSeconds(10).plusNanos(1))))
        .as("an instant finer than micros is not expressible").isEqualTo(3);
  }

  @Test
  void nullChecksUseNullCounts() {
    assertThat(groupsRead(new IsNull("note"))).as("groups 0 and 1 hold nulls").isEqualTo(2);
    assertThat(groupsRead(new IsNotNull("note"))).as("group 0 holds only nulls").isEqualTo(2);
    assertThat(groupsRead(new Not(new IsNull("note")))).isEqualTo(2);
    assertThat(groupsRead(new Comparison("note", Operator.LT_EQ, "note99"))).as("an all-null group holds no value").isEqualTo(2);
    assertThat(groupsRead(new Comparison("flag", Operator.EQ, true))).as("group 2 is all null").isEqualTo(2);
    assertThat(groupsRead(new IsNull("amount"))).isZero();
  }

  @Test
  void andOrAndNotCombineTheirSides() {
    assertThat(groupsRead(new And(amount(Operator.GT_EQ, 10), amount(Operator.LT, 20)))).isEqualTo(1);
    assertThat(groupsRead(new Or(amount(Operator.LT, 5), amount(Operator.GT, 25)))).isEqualTo(2);
    assertThat(groupsRead(new Not(amount(Operator.GT_EQ, 10)))).isEqualTo(1);
    assertThat(groupsRead(new Not(new Or(amount(Operator.LT, 10), amount(Operator.GT_EQ, 20))))).isEqualTo(1);
  }

  @Test
  void aPartTheFileCannotExpressNeverNarrowsTheRead() {
    Comparison unknown = new Comparison("missing", Operator.EQ, 1L);
    assertThat(groupsRead(new And(amount(Operator.LT, 10), unknown))).as("the AND keeps its known side").isEqualTo(1);
    assertThat(groupsRead(new Or(amount(Operator.LT, 10), unknown))).isEqualTo(3);
    assertThat(groupsRead(new Not(new And(amount(Operator.LT, 10), unknown))))
        .as("under NOT a weaker AND would prune too much").isEqualTo(3);
    assertThat(ParquetColumnPredicates.forFile(new In("amount", List.of(1L, "2")), file.parquetSchema())).isEmpty();
  }
}
