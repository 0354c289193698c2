package io.riverbed.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hudi.QuickstartUtils;
import org.apache.hudi.QuickstartUtils.DataGenerator;
import org.apache.hudi.QuickstartUtils.Trip;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code QuickstartUtils} against Apache Hudi 0.15.0's: the lines below are what Hudi 0.15.0's
 * generator printed in a fresh JVM for {@code generateInserts(10)}, {@code generateUpdates(10)} and
 * {@code generateInserts(3)}, with the random UUIDs and timestamps (random in Hudi too) masked; then
 * the pyspark walkthrough's insert and update through {@code format("hudi")}.
 */
class QuickstartUtilsTest {
  private static final List<String> HUDI_INSERTS = List.of(
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.4726905879569653, \"begin_lon\": 0.46157858450465483, \"end_lat\": 0.754803407008858, \"end_lon\": 0.9671159942018241, \"fare\": 34.158284716382845, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.6100070562136587, \"begin_lon\": 0.8779402295427752, \"end_lat\": 0.3407870505929602, \"end_lon\": 0.5030798142293655, \"fare\": 43.4923811219014, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.5731835407930634, \"begin_lon\": 0.4923479652912024, \"end_lat\": 0.08988581780930216, \"end_lon\": 0.42520899698713666, \"fare\": 64.27696295884016, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.21624150367601136, \"begin_lon\": 0.14285051259466197, \"end_lat\": 0.5890949624813784, \"end_lon\": 0.0966823831927115, \"fare\": 93.56018115236618, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.40613510977307, \"begin_lon\": 0.5644092139040959, \"end_lat\": 0.798706304941517, \"end_lon\": 0.02698359227182834, \"fare\": 17.851135255091155, \"partitionpath\": \"asia/india/chennai\"}, \"partitionpath\": \"asia/india/chennai\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.8742041526408587, \"begin_lon\": 0.7528268153249502, \"end_lat\": 0.9197827128888302, \"end_lon\": 0.362464770874404, \"fare\": 19.179139106643607, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.1856488085068272, \"begin_lon\": 0.9694586417848392, \"end_lat\": 0.38186367037201974, \"end_lon\": 0.25252652214479043, \"fare\": 33.92216483948643, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.0750588760043035, \"begin_lon\": 0.03844104444445928, \"end_lat\": 0.04376353354538354, \"end_lon\": 0.6346040067610669, \"fare\": 66.62084366450246, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.651058505660742, \"begin_lon\": 0.8192868687714224, \"end_lat\": 0.20714896002914462, \"end_lon\": 0.06224031095826987, \"fare\": 41.06290929046368, \"partitionpath\": \"asia/india/chennai\"}, \"partitionpath\": \"asia/india/chennai\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-213\", \"driver\": \"driver-213\", \"begin_lat\": 0.11488393157088261, \"begin_lon\": 0.6273212202489661, \"end_lat\": 0.7454678537511295, \"end_lon\": 0.3954939864908973, \"fare\": 27.79478688582596, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}"
  );
  private static final List<String> HUDI_UPDATES = List.of(
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.7340133901254792, \"begin_lon\": 0.5142184937933181, \"end_lat\": 0.7814655558162802, \"end_lon\": 0.6592596683641996, \"fare\": 49.527694252432056, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.1593867607188556, \"begin_lon\": 0.010872312870502165, \"end_lat\": 0.9808530350038475, \"end_lon\": 0.7963756520507014, \"fare\": 29.47661370147079, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.7180196467760873, \"begin_lon\": 0.13755354862499358, \"end_lat\": 0.3037264771699937, \"end_lon\": 0.2539047155055727, \"fare\": 86.75932789048282, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.6570857443423376, \"begin_lon\": 0.888493603696927, \"end_lat\": 0.9036309069576131, \"end_lon\": 0.37603706507284995, \"fare\": 63.72504913279929, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.08528650347654165, \"begin_lon\": 0.4006983139989222, \"end_lat\": 0.1975324518739051, \"end_lon\": 0.908216792146506, \"fare\": 90.25710109008239, \"partitionpath\": \"asia/india/chennai\"}, \"partitionpath\": \"asia/india/chennai\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.18294079059016366, \"begin_lon\": 0.19949323322922063, \"end_lat\": 0.24749642418050566, \"end_lon\": 0.1751761658135068, \"fare\": 90.9053809533154, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.4777395067707303, \"begin_lon\": 0.3349917833248327, \"end_lat\": 0.9735699951963335, \"end_lon\": 0.8144901865212508, \"fare\": 98.3428192817987, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.014159831486388885, \"begin_lon\": 0.42849372303000655, \"end_lat\": 0.9968531966280192, \"end_lon\": 0.9451993293955782, \"fare\": 2.375516772415698, \"partitionpath\": \"americas/united_states/san_francisco\"}, \"partitionpath\": \"americas/united_states/san_francisco\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.16603428449020086, \"begin_lon\": 0.6999655248704163, \"end_lat\": 0.5086437188581894, \"end_lon\": 0.6242134749327686, \"fare\": 9.384124531808036, \"partitionpath\": \"asia/india/chennai\"}, \"partitionpath\": \"asia/india/chennai\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-284\", \"driver\": \"driver-284\", \"begin_lat\": 0.2110206104048945, \"begin_lon\": 0.2783086084578943, \"end_lat\": 0.12154541219767523, \"end_lon\": 0.8700506703716298, \"fare\": 91.99515909032544, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}"
  );
  /** Which of the first ten inserts each of Hudi's ten updates updated. */
  private static final int[] HUDI_UPDATED_INSERTS = {2, 0, 0, 7, 4, 6, 9, 6, 8, 0};
  private static final List<String> HUDI_SECOND_INSERTS = List.of(
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-243\", \"driver\": \"driver-243\", \"begin_lat\": 0.9045189017781902, \"begin_lon\": 0.38697902072535484, \"end_lat\": 0.21932410786717094, \"end_lon\": 0.7816060218244935, \"fare\": 44.596839246210095, \"partitionpath\": \"americas/brazil/sao_paulo\"}, \"partitionpath\": \"americas/brazil/sao_paulo\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-243\", \"driver\": \"driver-243\", \"begin_lat\": 0.856152038750905, \"begin_lon\": 0.3132477949501916, \"end_lat\": 0.8742438057467156, \"end_lon\": 0.26923247017036556, \"fare\": 2.4995362119815567, \"partitionpath\": \"asia/india/chennai\"}, \"partitionpath\": \"asia/india/chennai\"}",
      "{\"ts\": TS, \"uuid\": \"UUID\", \"rider\": \"rider-243\", \"driver\": \"driver-243\", \"begin_lat\": 0.244841817279154, \"begin_lon\": 0.1072756362186601, \"end_lat\": 0.942031609993243, \"end_lon\": 0.4046750217523756, \"fare\": 15.119997249522644, \"partitionpath\": \"asia/india/chennai\"}, \"partitionpath\": \"asia/india/chennai\"}"
  );

  private static SparkSession spark;

  @BeforeAll
  static void session() {
    spark = HudiNamedSession.get();
  }

  @Test
  void firstGeneratorOfASessionGivesHudisRows() {
    DataGenerator generator = new DataGenerator();
    List<Trip> inserts = generator.generateInserts(10);
    assertThat(masked(QuickstartUtils.convertToStringList(inserts))).containsExactlyElementsOf(HUDI_INSERTS);

    List<Trip> updates = generator.generateUpdates(10);
    assertThat(masked(QuickstartUtils.convertToStringList(updates))).containsExactlyElementsOf(HUDI_UPDATES);
    for (int i = 0; i < updates.size(); i++) {
      assertThat(updates.get(i).getRecordKey()).isEqualTo(inserts.get(HUDI_UPDATED_INSERTS[i]).getRecordKey());
    }

    assertThat(masked(QuickstartUtils.convertToStringList(generator.generateInserts(3))))
        .containsExactlyElementsOf(HUDI_SECOND_INSERTS);
    assertThat(generator.getNumExistingKeys()).isEqualTo(13);
  }

  @Test
  void timestampsLieInTheLastSevenDaysAndKeysAreUnique() {
    long before = System.currentTimeMillis();
    List<Trip> trips = new DataGenerator().generateInserts(50);
    long after = System.currentTimeMillis();
    assertThat(trips).allSatisfy(t -> assertThat(t.ts()).isBetween(before - TimeUnit.DAYS.toMillis(7), after));
    assertThat(trips.stream().map(Trip::uuid).distinct()).hasSize(50);
  }

  @Test
  void updatesNeedInsertsFirstAndUniqueUpdatesTouchDistinctKeys() {
    DataGenerator generator = new DataGenerator();
    assertThatThrownBy(() -> generator.generateUpdates(1))
        .hasMessage("Data must have been written before performing the update operation");
    generator.generateInserts(5);
    assertThat(generator.generateUniqueUpdates(5).stream().map(Trip::uuid).distinct()).hasSize(5);
    assertThatThrownBy(() -> generator.generateUniqueUpdates(6))
        .hasMessage("Data must have been written before performing the update operation");
  }

  @Test
  void deletesAndWriteConfigsAreHudis() {
    StructType keys = new StructType().add("uuid", DataTypes.StringType).add("partitionpath", DataTypes.StringType);
    StructType withTs = keys.add("ts", DataTypes.LongType);
    List<Row> rows = List.of(new GenericRowWithSchema(new Object[] {"k1", "asia/india/chennai"}, keys),
        new GenericRowWithSchema(new Object[] {"k2", "americas/brazil/sao_paulo", 1700000000000L}, withTs));
    assertThat(new DataGenerator().generateDeletes(rows)).containsExactly(
        "{\"ts\": \"0.0\",\"uuid\": \"k1\",\"partitionpath\": \"asia/india/chennai\"}",
        "{\"ts\": \"1700000000000\",\"uuid\": \"k2\",\"partitionpath\": \"americas/brazil/sao_paulo\"}");
    assertThat(QuickstartUtils.getQuickstartWriteConfigs()).isEqualTo(Map.of(
        "hoodie.insert.shuffle.parallelism", "2", "hoodie.upsert.shuffle.parallelism", "2",
        "hoodie.bulkinsert.shuffle.parallelism", "2", "hoodie.delete.shuffle.parallelism", "2"));
  }

  /** The walkthrough's steps: generated inserts and updates read with {@code spark.read.json}, written and read back. */
  @Test
  void walkthroughInsertAndUpdateRoundTrip() throws Exception {
    String basePath = Files.createTempDirectory("hudi_trips_cow").toUri().toString();
    Map<String, String> hudiOptions = Map.of(
        "hoodie.table.name", "hudi_trips_cow",
        "hoodie.datasource.write.recordkey.field", "uuid",
        "hoodie.datasource.write.partitionpath.field", "partitionpath",
        "hoodie.datasource.write.table.name", "hudi_trips_cow",
        "hoodie.datasource.write.operation", "upsert",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.upsert.shuffle.parallelism", "2",
        "hoodie.insert.shuffle.parallelism", "2");
    DataGenerator generator = new DataGenerator();
    List<Trip> inserts = generator.generateInserts(10);
    Dataset<Row> df = json(QuickstartUtils.convertToStringList(inserts));
    assertThat(df.columns()).containsExactly("begin_lat", "begin_lon", "driver", "end_lat", "end_lon", "fare",
        "partitionpath", "rider", "ts", "uuid");
    df.write().format("hudi").options(hudiOptions).mode(SaveMode.Overwrite).save(basePath);

    Dataset<Row> snapshot = spark.read().format("hudi").load(basePath);
    assertThat(snapshot.count()).isEqualTo(10);
    assertThat(snapshot.filter("fare > 20.0").count()).isEqualTo(inserts.stream().filter(t -> t.fare() > 20.0).count());

    List<Trip> updates = generator.generateUpdates(10);
    json(QuickstartUtils.convertToStringList(updates)).write().format("hudi").options(hudiOptions)
        .mode(SaveMode.Append).save(basePath);
    Map<String, String> riders = spark.read().format("hudi").load(basePath).select("uuid", "rider").collectAsList().stream()
        .collect(Collectors.toMap(r -> r.getString(0), r -> r.getString(1)));
    assertThat(riders).hasSize(10);
    for (Trip trip : inserts) {
      boolean updated = updates.stream().anyMatch(u -> u.uuid().equals(trip.uuid()));
      assertThat(riders.get(trip.uuid())).isEqualTo(updated ? updates.get(0).rider() : trip.rider());
    }
  }

  private static Dataset<Row> json(List<String> lines) {
    return spark.read().json(spark.createDataset(lines, Encoders.STRING()).repartition(2));
  }

  private static List<String> masked(List<String> lines) {
    return lines.stream()
        .map(l -> l.replaceAll("\"ts\": \\d+", "\"ts\": TS").replaceAll("\"uuid\": \"[0-9a-f-]{36}\"", "\"uuid\": \"UUID\""))
        .toList();
  }
}
