package io.riverbed.format.write;

import static io.riverbed.format.write.CleanTestTable.cleanOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchiveResult;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.clean.CleaningPolicy;
import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantTime;
import java.io.FileNotFoundException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Registered consumers and the table services: under each cleaning policy a lagging consumer keeps
 * the file slices its next incremental read needs, until it advances or expires; archival stops at
 * it; and an incremental read for a consumer begins at, and records, its position.
 * (In the {@code write} package for {@link CleanTestTable}.)
 */
class ConsumerRetentionTest {
  @TempDir java.nio.file.Path dir;

  private static TreeSet<String> slices(CleanTestTable t) {
    return t.dataFiles().stream().map(CleanTestTable::sliceOf).collect(Collectors.toCollection(TreeSet::new));
  }

  private static ConsumerRegistry consumers(CleanTestTable t) {
    return ConsumerRegistry.of(t.table);
  }

  /** A registry whose positions were recorded eight days ago: expired under the default week. */
  private static ConsumerRegistry recordedEightDaysAgo(CleanTestTable t) {
    return ConsumerRegistry.of(t.table, Clock.offset(Clock.systemUTC(), Duration.ofDays(-8)));
  }

  @Test
  void keepLatestCommitsOnMergeOnReadKeepsTheSlicesALaggingConsumerReadsUntilItAdvances() throws Exception {
    var t = CleanTestTable.morWithTwoCompactions(dir);
    List<String> w = t.writes();
    var fromFirst = t.incremental(w.get(0), w.get(6));
    var fromThird = t.incremental(w.get(3), w.get(6));
    var before = t.dataFiles();
    consumers(t).register("etl", w.get(0));

    assertThat(Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 3, 1)).execute())
        .as("the slice of t1 is the newest before r2, the first commit the consumer reads next").isEmpty();
    assertThat(t.dataFiles()).isEqualTo(before);
    assertThat(t.incremental(w.get(0), w.get(6))).isEqualTo(fromFirst);

    consumers(t).advance("etl", w.get(3));
    CleanResult clean = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 3, 1)).execute().get(0);

    assertThat(clean.earliestInstantRetained()).as("as without a consumer").isEqualTo(w.get(4));
    assertThat(clean.filesDeleted()).isEqualTo(4);
    assertThat(slices(t)).containsExactly(w.get(2), w.get(5));
    assertThat(t.incremental(w.get(3), w.get(6))).isEqualTo(fromThird);
  }

  @Test
  void keepLatestCommitsHoldsTheEarliestRetainedInstantAtTheConsumersNextCommit() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 5);
    List<String> w = t.writes();
    var nextBatch = t.incremental(w.get(1), w.get(2));
    var toTheEnd = t.incremental(w.get(1), w.get(4));
    consumers(t).register("etl", w.get(1));

    CleanResult clean = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 1, 1)).execute().get(0);

    assertThat(clean.earliestInstantRetained()).as("w4 without the consumer").isEqualTo(w.get(2));
    assertThat(slices(t)).containsExactly(w.get(1), w.get(2), w.get(3), w.get(4));
    assertThat(t.incremental(w.get(1), w.get(2))).as("a batch read by end instant").isEqualTo(nextBatch);
    assertThat(t.incremental(w.get(1), w.get(4))).isEqualTo(toTheEnd);
  }

  @Test
  void keepLatestByHoursIsHeldBackTheSameWay() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 4);
    List<String> w = t.writes();
    var zone = t.table.config().timelineTimezone().zoneId();
    var now = InstantTime.parseToDateTime(w.get(2)).plusHours(1).atZone(zone).toInstant();
    Clock wall = Clock.fixed(now, ZoneOffset.UTC);
    var opts = CleanOptions.fromMap(Map.of(CleanOptions.POLICY, "KEEP_LATEST_BY_HOURS", CleanOptions.HOURS_RETAINED, "1"));
    var fromFirst = t.incremental(w.get(0), w.get(3));
    ConsumerRegistry.of(t.table, wall).register("etl", w.get(0));

    assertThat(Cleaner.of(t.table).options(opts).wallClock(wall).execute()).as("w1 is the consumer's next commit")
        .isEmpty();
    assertThat(t.incremental(w.get(0), w.get(3))).isEqualTo(fromFirst);

    ConsumerRegistry.of(t.table, wall).advance("etl", w.get(2));
    CleanResult clean = Cleaner.of(t.table).options(opts).wallClock(wall).execute().get(0);
    assertThat(clean.earliestInstantRetained()).isEqualTo(w.get(2));
    assertThat(slices(t)).containsExactly(w.get(1), w.get(2), w.get(3));
  }

  @Test
  void keepLatestFileVersionsKeepsTheSlicesHoldingTheConsumersNextCommits() throws Exception {
    var t = CleanTestTable.morWithTwoCompactions(dir);
    List<String> w = t.writes();
    var fromThird = t.incremental(w.get(3), w.get(6));
    consumers(t).register("etl", w.get(3));

    CleanResult clean = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_FILE_VERSIONS, 10, 1))
        .execute().get(0);

    assertThat(slices(t)).as("c1's slice holds r4's logs, which the consumer reads next; t1's goes")
        .containsExactly(w.get(2), w.get(5));
    assertThat(clean.filesDeleted()).isEqualTo(4);
    assertThat(t.incremental(w.get(3), w.get(6))).isEqualTo(fromThird);

    consumers(t).advance("etl", w.get(5));
    t.upsertRound(6);
    Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_FILE_VERSIONS, 10, 1)).execute();
    assertThat(slices(t)).as("one version, as without a consumer").containsExactly(w.get(5));
  }

  @Test
  void keepLatestFileVersionsKeepsEverySliceForAConsumerAtTheStart() throws Exception {
    var t = CleanTestTable.morWithTwoCompactions(dir);
    List<String> w = t.writes();
    var everything = t.incremental("000", w.get(6));
    var before = t.dataFiles();
    consumers(t).register("etl", "000");

    assertThat(Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_FILE_VERSIONS, 10, 1)).execute())
        .isEmpty();
    assertThat(t.dataFiles()).isEqualTo(before);
    assertThat(t.incremental("000", w.get(6))).isEqualTo(everything);
  }

  @Test
  void anExpiredConsumerNoLongerPinsAndItsNextReadIsRefusedInsteadOfMissingFiles() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 5);
    List<String> w = t.writes();
    recordedEightDaysAgo(t).register("etl", w.get(0));

    CleanResult clean = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 1, 1)).execute().get(0);

    assertThat(clean.earliestInstantRetained()).isEqualTo(w.get(4));
    assertThat(slices(t)).containsExactly(w.get(3), w.get(4));
    assertThatThrownBy(() -> t.incremental(w.get(0), w.get(2))).as("a plain incremental read fails as in Hudi")
        .hasRootCauseInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> TableReads.lines(t.table, QuerySpec.incrementalFor("etl", null, w.get(2))))
        .isInstanceOf(TableException.class)
        .hasMessageContaining("consumer etl reads from " + w.get(0) + ", but clean " + clean.instantTime()
            + " retained only the commits from " + w.get(4) + " on; files of " + w.get(1))
        .hasMessageContaining(ConsumerOptions.EXPIRATION);
    assertThat(consumers(t).get("etl").orElseThrow().position()).as("a refused read records nothing")
        .isEqualTo(w.get(0));
    assertThat(TableReads.lines(t.table, QuerySpec.incrementalFor("etl", w.get(3), null)))
        .isEqualTo(t.incremental(w.get(3), w.get(4)));
    assertThat(consumers(t).get("etl").orElseThrow().position()).isEqualTo(w.get(3));
  }

  @Test
  void theExpirationIsACleanOption() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 4);
    List<String> w = t.writes();
    ConsumerRegistry.of(t.table, Clock.offset(Clock.systemUTC(), Duration.ofHours(-2))).register("etl", w.get(0));
    var conf = new HashMap<>(Map.of(CleanOptions.COMMITS_RETAINED, "1"));

    conf.put(ConsumerOptions.EXPIRATION, "3 h");
    assertThat(Cleaner.of(t.table).options(CleanOptions.fromMap(conf)).execute()).as("live for an hour more").isEmpty();
    conf.put(ConsumerOptions.EXPIRATION, "1 h");
    assertThat(Cleaner.of(t.table).options(CleanOptions.fromMap(conf)).execute()).hasSize(1);
    assertThat(slices(t)).containsExactly(w.get(2), w.get(3));
  }

  @Test
  void aConsumerBehindTheLastCleanDoesNotMoveTheEarliestRetainedInstantBack() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 5);
    Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 2, 1)).execute();
    List<String> w = t.writes();
    consumers(t).register("late", w.get(0));
    t.upsertRound(6);
    t.upsertRound(7);

    List<CleanResult> cleans = Cleaner.of(t.table).options(cleanOptions(CleaningPolicy.KEEP_LATEST_COMMITS, 2, 1)).execute();

    assertThat(cleans).as("held at the last clean's earliest retained w3, where nothing more goes").isEmpty();
    assertThat(slices(t)).containsExactly(w.get(2), w.get(3), w.get(4), t.writes().get(5), t.writes().get(6));
    assertThatThrownBy(() -> TableReads.lines(t.table, QuerySpec.incrementalFor("late", null, null)))
        .hasMessageContaining("consumer late reads from " + w.get(0));
  }

  @Test
  void archivalStopsAtTheFirstCommitALiveConsumerReadsNext() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 7);
    List<String> w = t.writes();
    var fromSecond = t.incremental(w.get(1), w.get(6));
    ArchiveOptions keep = ArchiveOptions.fromMap(Map.of(ArchiveOptions.MIN_COMMITS, "2", ArchiveOptions.MAX_COMMITS, "4"));
    consumers(t).register("etl", w.get(1));

    ArchiveResult held = Archiver.of(t.table).options(keep).execute();

    assertThat(held.completedInstants()).extracting(Instant::time).containsExactly(w.get(0), w.get(1));
    assertThat(t.incremental(w.get(1), w.get(6))).isEqualTo(fromSecond);

    ArchiveResult expired = Archiver.of(t.table).options(keep)
        .wallClock(Clock.offset(Clock.systemUTC(), Duration.ofDays(8))).execute();
    assertThat(expired.completedInstants()).extracting(Instant::time).containsExactlyElementsOf(w.subList(2, 5));
    assertThat(t.incremental(w.get(1), w.get(6))).as("only what the active commits from w5 on wrote, as Hudi answers")
        .isEqualTo(t.incremental(w.get(4), w.get(6)));
  }

  @Test
  void aConsumerReadBeginsAtItsPositionAndRecordsTheBeginNotTheEnd() throws Exception {
    var t = CleanTestTable.cowWithRounds(dir, 4);
    List<String> w = t.writes();

    assertThatThrownBy(() -> TableReads.lines(t.table, QuerySpec.incrementalFor("etl", null, null)))
        .isInstanceOf(TableException.class)
        .hasMessage("table " + t.table.basePath() + " has no consumer etl; give "
            + QuerySpec.BEGIN_INSTANT + " for its first read");

    assertThat(TableReads.lines(t.table, QuerySpec.incrementalFor("etl", w.get(0), w.get(2))))
        .isEqualTo(t.incremental(w.get(0), w.get(2)));
    assertThat(consumers(t).get("etl").orElseThrow().position()).isEqualTo(w.get(0));

    assertThat(TableReads.lines(t.table, QuerySpec.incrementalFor("etl", null, null)))
        .as("no begin: from the position, the last range again and what followed")
        .isEqualTo(t.incremental(w.get(0), w.get(3)));
    assertThat(consumers(t).get("etl").orElseThrow().position()).isEqualTo(w.get(0));

    TableReads.lines(t.table, QuerySpec.incrementalFor("etl", w.get(2), null));
    assertThat(consumers(t).get("etl").orElseThrow().position()).isEqualTo(w.get(2));
  }

  @Test
  void aConsumerIdIsOnlyForIncrementalQueries() {
    assertThatThrownBy(() -> QuerySpec.fromOptions(Map.of(QuerySpec.CONSUMER_ID, "etl")))
        .isInstanceOf(TableException.class)
        .hasMessage("consumer-id is for incremental queries; set hoodie.datasource.query.type=incremental");
    assertThatThrownBy(() -> QuerySpec.fromOptions(Map.of(QuerySpec.QUERY_TYPE, "incremental",
        QuerySpec.CONSUMER_ID, "a/b"))).hasMessageContaining("'a/b' is not a consumer id");
    assertThat(QuerySpec.fromOptions(Map.of(QuerySpec.QUERY_TYPE, "incremental", QuerySpec.CONSUMER_ID, "etl"))
        .beginInstant()).isEmpty();
  }
}
