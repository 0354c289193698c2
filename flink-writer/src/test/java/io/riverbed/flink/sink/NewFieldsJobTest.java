package io.riverbed.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.source.JsonRowConverter;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.record.SchemaEvolution;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.TimelineStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A running job adds columns for fields its input gains ({@link RiverbedSink#withNewFields}): one
 * chunk per checkpoint, so each chunk is one commit; two writer tasks, so different tasks meet
 * different new fields in the same commit. Rows written before a column existed read it as null,
 * rows after with their values; a BIGINT column widens to DOUBLE when a fraction arrives later;
 * the columns survive a failover, compaction, and a later job whose input no longer has them.
 */
class NewFieldsJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("uuid", DataTypes.STRING().notNull()),
      DataTypes.FIELD("name", DataTypes.STRING()),
      DataTypes.FIELD("ts", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("city", DataTypes.STRING())).getLogicalType();

  private static final List<List<String>> CHUNKS = List.of(
      List.of("""
          {"uuid":"k1","name":"a1","ts":1,"city":"paris"}""", """
          {"uuid":"k2","name":"b1","ts":1,"city":"lyon"}""", """
          {"uuid":"k3","name":"c1","ts":1,"city":"paris"}"""),
      List.of("""
          {"uuid":"k1","name":"a2","ts":2,"city":"paris","coupon":"C1","score":5}""", """
          {"uuid":"k4","name":"d1","ts":2,"city":"lyon","coupon":"C4"}"""),
      List.of("""
          {"uuid":"k2","name":"b2","ts":3,"city":"lyon","score":7.5,"info":{"vip":true,"level":2}}""", """
          {"uuid":"k5","name":"e1","ts":3,"city":"paris","coupon":null,"info":{"vip":false}}"""));

  @TempDir
  Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"MERGE_ON_READ", "COPY_ON_WRITE"})
  void aRunningJobAddsColumnsForNewFieldsAndRowsBeforeReadThemAsNull(String tableType) throws Exception {
    var options = options(tableType);
    String name = "new-fields-" + tableType;
    // a failover after the commit of the second chunk: the restored writers and coordinator keep the columns
    write(name, CHUNKS, options, ChunkedSource.failingOnceAfter(name, 1));
    Table table = WriterFixtures.table(options);

    assertThat(read(table)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "k1", "a2|C1|5.0|null",
        "k2", "b2|null|7.5|{\"vip\": true, \"level\": 2}",
        "k3", "c1|null|null|null",
        "k4", "d1|C4|null|null",
        "k5", "e1|null|null|{\"vip\": false, \"level\": null}")));

    List<Schema> schemas = commitSchemas(table);
    assertThat(columns(schemas.get(0))).containsExactly("uuid", "name", "ts", "city");
    assertThat(columns(schemas.get(1))).containsExactly("uuid", "name", "ts", "city", "coupon", "score");
    Schema last = schemas.get(schemas.size() - 1);
    assertThat(columns(last)).containsExactlyInAnyOrder("uuid", "name", "ts", "city", "coupon", "score", "info");
    assertThat(SchemaEvolution.nonNull(last.getField("score").schema()).getType()).isEqualTo(Schema.Type.DOUBLE);
    assertThat(SchemaEvolution.nonNull(last.getField("info").schema()).getType()).isEqualTo(Schema.Type.RECORD);
    assertThat(last.getField("coupon").defaultVal()).isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
    // time travel to the first commit reads in the schema of that time, as Hudi does
    assertThat(read(table, QuerySpec.asOf(commitTimes(table).get(0)))).containsEntry("k1", "a1|absent|absent|absent");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"MERGE_ON_READ", "COPY_ON_WRITE"})
  void aLaterJobWhoseInputLacksTheAddedFieldsKeepsTheColumnsAndTheirValues(String tableType) throws Exception {
    var options = options(tableType);
    options.put("compaction.delta_commits", "1");
    write("new-fields-first-" + tableType, CHUNKS, options, null);
    write("new-fields-second-" + tableType, List.of(List.of("""
        {"uuid":"k1","name":"a3","ts":4,"city":"paris"}""", """
        {"uuid":"k2","name":"b3","ts":4,"city":"lyon","score":1}""")), options, null);
    Table table = WriterFixtures.table(options);

    assertThat(read(table)).containsEntry("k1", "a3|null|null|null")
        .containsEntry("k2", "b3|null|1.0|null")
        .containsEntry("k3", "c1|null|null|null")
        .containsEntry("k4", "d1|C4|null|null");
    List<Schema> schemas = commitSchemas(table);
    assertThat(columns(schemas.get(schemas.size() - 1)))
        .containsExactlyInAnyOrder("uuid", "name", "ts", "city", "coupon", "score", "info");
    assertThat(SchemaEvolution.nonNull(schemas.get(schemas.size() - 1).getField("score").schema()).getType())
        .as("the later job takes the table's DOUBLE for an integer").isEqualTo(Schema.Type.DOUBLE);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"MERGE_ON_READ"})
  void aValueThatFitsNeitherItsColumnNorAWideningFailsTheJobNamingKeyAndFieldAndCommitsNothingOfIt(String tableType)
      throws Exception {
    var options = options(tableType);
    write("new-fields-good-" + tableType, CHUNKS.subList(0, 2), options, null);
    Table table = WriterFixtures.table(options);
    int commits = commitTimes(table).size();
    assertThatThrownBy(() -> write("new-fields-bad-" + tableType, List.of(List.of("""
        {"uuid":"k9","name":"x","ts":9,"city":"paris","score":"high"}""")), options, null))
        .rootCause().hasMessageContaining("record key k9").hasMessageContaining("field 'score'")
        .hasMessageContaining("\"high\"");
    assertThat(commitTimes(WriterFixtures.table(options))).hasSize(commits);
    assertThat(read(WriterFixtures.table(options))).containsEntry("k1", "a2|C1|5|absent").doesNotContainKey("k9");
  }

  private Map<String, String> options(String tableType) {
    var o = WriterFixtures.options(dir, tableType);
    o.put("hoodie.datasource.write.partitionpath.field", "city");
    return o;
  }

  /** Writes the JSON chunks with two writer tasks adding new fields, one chunk per checkpoint. */
  private static void write(String name, List<List<String>> chunks, Map<String, String> options,
      ChunkedSource failing) throws Exception {
    JsonRowConverter converter = JsonRowConverter.keepingNewFields(ROW_TYPE);
    List<List<RowData>> rows = new ArrayList<>();
    chunks.forEach(chunk -> rows.add(chunk.stream().map(converter::convert).toList()));
    ChunkedSource.register(name, rows);
    var env = WriterFixtures.env(2, failing == null ? 0 : 2);
    RowType inputType = RiverbedSink.withNewFieldsColumn(ROW_TYPE);
    var stream = env.addSource(failing != null ? failing : new ChunkedSource(name, 0), "chunks",
        InternalTypeInfo.of(inputType)).setParallelism(1);
    RiverbedSink.forRowData(ROW_TYPE, options).withNewFields().sinkTo(stream);
    env.execute(name);
  }

  /** key -> "name|coupon|score|info" of the snapshot (or {@code spec}). */
  private static Map<String, String> read(Table table) {
    return read(table, QuerySpec.snapshot());
  }

  private static Map<String, String> read(Table table, QuerySpec spec) {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table.reload(), spec)) {
      out.put(r.get("uuid").toString(), r.get("name") + "|" + field(r, "coupon") + "|" + field(r, "score") + "|"
          + field(r, "info"));
    }
    return out;
  }

  private static Object field(GenericRecord r, String name) {
    return r.getSchema().getField(name) == null ? "absent" : r.get(name);
  }

  private static List<String> commitTimes(Table table) {
    return TimelineStore.at(table.fs(), table.metaPath()).load().commitsTimeline().completed().instants().stream()
        .map(Instant::time).toList();
  }

  /** The schema each completed write commit (not compactions) recorded, in commit order. */
  private static List<Schema> commitSchemas(Table table) {
    TimelineStore store = TimelineStore.at(table.fs(), table.metaPath());
    List<Schema> out = new ArrayList<>();
    for (Instant instant : store.load().commitsTimeline().completed().instants()) {
      CommitMetadata metadata = CommitMetadata.parse(store.read(instant), instant.toString());
      if (metadata.operationType() != null && metadata.operationType().canUpdateSchema()) {
        out.add(new Schema.Parser().parse(metadata.schema().orElseThrow()));
      }
    }
    return out;
  }

  private static List<String> columns(Schema schema) {
    return schema.getFields().stream().map(Schema.Field::name).toList();
  }
}
