package io.riverbed.flink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class JsonSchemaInferenceTest {
  private static Iterator<SourceLine> lines(String... texts) {
    List<SourceLine> out = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      out.add(SourceLine.fileLine("file:/in.jsonl", i + 1, texts[i]));
    }
    return out.iterator();
  }

  private static String infer(String... texts) {
    return JsonSchemaInference.infer(lines(texts), 100, BadRecordPolicy.FAIL).asSummaryString();
  }

  @Test
  void typesComeFromJsonValuesAndAllFieldsAreNullable() {
    assertThat(infer("{\"id\": \"a\", \"n\": 1, \"x\": 1.5, \"ok\": true, \"o\": {\"z\": 2}, \"arr\": [1, 2]}"))
        .isEqualTo("ROW<`id` STRING, `n` BIGINT, `x` DOUBLE, `ok` BOOLEAN, `o` ROW<`z` BIGINT>, `arr` ARRAY<BIGINT>>");
  }

  @Test
  void fieldsMergeAcrossRecordsInOrderOfFirstAppearance() {
    assertThat(infer(
        "{\"id\": \"a\", \"n\": 1, \"o\": {\"z\": 2}}",
        "",
        "{\"id\": \"b\", \"n\": 2.5, \"extra\": null, \"o\": {\"y\": \"q\"}}",
        "{\"id\": 3, \"extra\": false}"))
        .isEqualTo("ROW<`id` STRING, `n` DOUBLE, `o` ROW<`z` BIGINT, `y` STRING>, `extra` BOOLEAN>");
  }

  @Test
  void onlyNullFieldsAndEmptyArraysBecomeStrings() {
    assertThat(infer("{\"a\": null, \"b\": [], \"c\": {}}"))
        .isEqualTo("ROW<`a` STRING, `b` ARRAY<STRING>, `c` STRING>");
  }

  @Test
  void onlyTheFirstRecordsAreSampled() {
    RowType t = JsonSchemaInference.infer(lines("{\"a\": 1}", "{\"b\": 1}"), 1, BadRecordPolicy.FAIL);
    assertThat(t.getFieldNames()).containsExactly("a");
  }

  @Test
  void aBadSampleLineFailsNamingItsLineUnlessSkipped() {
    assertThatThrownBy(() -> infer("{\"a\": 1}", "{oops"))
        .isInstanceOf(BadRecordException.class)
        .hasMessageStartingWith("bad record at line 2 of file:/in.jsonl while inferring the schema: not valid JSON");
    RowType t = JsonSchemaInference.infer(lines("{oops", "{\"a\": 1}"), 10, BadRecordPolicy.SKIP);
    assertThat(t.getFieldNames()).containsExactly("a");
  }

  @Test
  void fieldNamesMustBeAvroNames() {
    assertThatThrownBy(() -> infer("{\"bad-name\": 1}"))
        .hasMessageContaining("field 'bad-name' is not a valid Avro field name");
  }

  @Test
  void anEmptyInputCannotBeInferred() {
    assertThatThrownBy(() -> infer())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pass --schema");
  }
}
