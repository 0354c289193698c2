package io.riverbed.format.write.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.AppendHandle;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteTaskContext;
import io.riverbed.format.write.commit.CompactionTrigger.Policy;
import io.riverbed.format.write.commit.CompactionTrigger.Strategy;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hudi's compaction trigger strategies: each decided alone ({@link Policy#isDue}), then on a
 * MERGE_ON_READ table with delta commits made by the core's committer and a clock the test sets
 * (time is counted from the last compaction, or from the first delta commit before any).
 */
class CompactionTriggerTest {
  private static final Schema SCHEMA = SchemaBuilder.record("orders_record").namespace("hoodie.orders").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("dt")
      .endRecord();
  private static final String DT = "2024-01-01";
  private static final FileGroupId GROUP = new FileGroupId(DT, "11111111-0000-0000-0000-000000000001-0");
  private static final Duration HOUR = Duration.ofHours(1);

  @TempDir
  java.nio.file.Path dir;

  private Table table;
  private TableCommitter committer;
  private long checkpoint;

  @BeforeEach
  void createTable() {
    FileSystem fs;
    try {
      fs = FileSystem.getLocal(new Configuration());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    TableConfig config = TableConfig.builder("orders").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .payloadClass(PayloadMergeRule.EVENT_TIME.payloadClass())
        .timelineTimezone(io.riverbed.format.table.TimelineTimezone.UTC)
        .createSchema(SCHEMA.toString())
        .build();
    table = Table.create(fs, new Path(dir.toUri().toString(), "orders"), config);
    committer = TableCommitter.of(table, "writer").schema(SCHEMA);
  }

  // ---------------------------------------------------------------- the decision alone

  @Test
  void numCommitsIsDueAtTheDeltaCommitCountWhateverTheTime() {
    Policy p = new Policy(Strategy.NUM_COMMITS, 3, HOUR);
    assertThat(p.isDue(2, Duration.ofDays(9))).isFalse();
    assertThat(p.isDue(3, Duration.ZERO)).isTrue();
  }

  @Test
  void timeElapsedIsDueAtTheDeltaTimeWhateverTheCount() {
    Policy p = new Policy(Strategy.TIME_ELAPSED, 3, HOUR);
    assertThat(p.isDue(100, HOUR.minusSeconds(1))).isFalse();
    assertThat(p.isDue(1, HOUR)).isTrue();
  }

  @Test
  void numAndTimeNeedsBoth() {
    Policy p = new Policy(Strategy.NUM_AND_TIME, 3, HOUR);
    assertThat(p.isDue(3, HOUR.minusSeconds(1))).isFalse();
    assertThat(p.isDue(2, HOUR)).isFalse();
    assertThat(p.isDue(3, HOUR)).isTrue();
  }

  @Test
  void numOrTimeNeedsEither() {
    Policy p = new Policy(Strategy.NUM_OR_TIME, 3, HOUR);
    assertThat(p.isDue(2, HOUR.minusSeconds(1))).isFalse();
    assertThat(p.isDue(3, Duration.ZERO)).isTrue();
    assertThat(p.isDue(1, HOUR)).isTrue();
  }

  @Test
  void strategiesParseFromHudisOptionValuesAndAnUnknownOneIsNamed() {
    assertThat(Strategy.parse("num_commits")).isEqualTo(Strategy.NUM_COMMITS);
    assertThat(Strategy.parse(" Time_Elapsed ")).isEqualTo(Strategy.TIME_ELAPSED);
    assertThat(Strategy.parse("num_and_time")).isEqualTo(Strategy.NUM_AND_TIME);
    assertThat(Strategy.parse("num_or_time")).isEqualTo(Strategy.NUM_OR_TIME);
    assertThat(Strategy.NUM_OR_TIME.optionValue()).isEqualTo("num_or_time");
    assertThatThrownBy(() -> Strategy.parse("num_commits_after_last_request"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("num_commits_after_last_request")
        .hasMessageContaining("num_or_time");
    assertThatThrownBy(() -> new Policy(Strategy.NUM_COMMITS, 0, HOUR)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Policy(Strategy.TIME_ELAPSED, 1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------- on a table

  @Test
  void numCommitsSchedulesAfterTheCountOfDeltaCommitsSinceTheLastCompaction() {
    CompactionTrigger trigger = trigger(new Policy(Strategy.NUM_COMMITS, 2, HOUR), Clock.systemUTC());
    deltaCommit("k1");
    assertThat(trigger.scheduleIfDue(table)).isEmpty();
    deltaCommit("k2");
    String first = trigger.scheduleIfDue(table).orElseThrow();
    CompactionRunner.of(table, first).execute();

    deltaCommit("k3");
    assertThat(trigger.scheduleIfDue(table)).as("one delta commit since the compaction").isEmpty();
    deltaCommit("k4");
    assertThat(trigger.scheduleIfDue(table)).isPresent();
  }

  @Test
  void aPendingCompactionCountsAsTheLastOne() {
    CompactionTrigger trigger = trigger(new Policy(Strategy.NUM_COMMITS, 1, HOUR), Clock.systemUTC());
    deltaCommit("k1");
    String pending = trigger.scheduleIfDue(table).orElseThrow();
    assertThat(timeline().pendingCompactions().times()).containsExactly(pending);

    assertThat(trigger.scheduleIfDue(table)).as("no delta commit after the pending compaction").isEmpty();
  }

  @Test
  void timeElapsedCountsFromTheFirstDeltaCommitBeforeAnyCompaction() {
    String first = deltaCommit("k1");
    deltaCommit("k2");
    Policy policy = new Policy(Strategy.TIME_ELAPSED, 100, HOUR);

    assertThat(trigger(policy, at(first, HOUR.minusSeconds(1))).scheduleIfDue(table)).isEmpty();
    assertThat(trigger(policy, at(first, HOUR)).scheduleIfDue(table)).isPresent();
  }

  @Test
  void timeElapsedCountsFromTheLastCompactionAndNeedsADeltaCommitAfterIt() {
    String first = deltaCommit("k1");
    String compaction = trigger(Policy.everyDeltaCommits(1), Clock.systemUTC()).scheduleIfDue(table).orElseThrow();
    CompactionRunner.of(table, compaction).execute();
    Policy policy = new Policy(Strategy.TIME_ELAPSED, 100, HOUR);

    assertThat(trigger(policy, at(compaction, Duration.ofDays(1))).scheduleIfDue(table))
        .as("nothing written since the compaction").isEmpty();
    deltaCommit("k2");
    assertThat(trigger(policy, at(first, HOUR)).scheduleIfDue(table))
        .as("an hour after the first delta commit, not after the compaction").isEmpty();
    assertThat(trigger(policy, at(compaction, HOUR.minusSeconds(1))).scheduleIfDue(table)).isEmpty();
    assertThat(trigger(policy, at(compaction, HOUR)).scheduleIfDue(table)).isPresent();
  }

  @Test
  void numAndTimeWaitsForTheLaterOfTheTwo() {
    String first = deltaCommit("k1");
    Clock late = at(first, HOUR);
    Policy policy = new Policy(Strategy.NUM_AND_TIME, 2, HOUR);

    assertThat(trigger(policy, late).scheduleIfDue(table)).as("time, but one delta commit").isEmpty();
    deltaCommit("k2");
    assertThat(trigger(policy, at(first, HOUR.minusSeconds(1))).scheduleIfDue(table))
        .as("two delta commits, not the time").isEmpty();
    assertThat(trigger(policy, late).scheduleIfDue(table)).isPresent();
  }

  @Test
  void numOrTimeSchedulesOnTheEarlierOfTheTwo() {
    String first = deltaCommit("k1");
    Policy policy = new Policy(Strategy.NUM_OR_TIME, 2, HOUR);

    assertThat(trigger(policy, at(first, HOUR.minusSeconds(1))).scheduleIfDue(table)).isEmpty();
    assertThat(trigger(policy, at(first, HOUR)).scheduleIfDue(table)).as("by time, with one delta commit").isPresent();
  }

  @Test
  void numOrTimeSchedulesByCountBeforeTheTime() {
    String first = deltaCommit("k1");
    deltaCommit("k2");
    assertThat(trigger(new Policy(Strategy.NUM_OR_TIME, 2, HOUR), at(first, Duration.ZERO)).scheduleIfDue(table))
        .isPresent();
  }

  @Test
  void scheduledCompactionsAreHandedToTheCallbackAfterACommit() {
    List<String> scheduled = new java.util.ArrayList<>();
    committer.postCommit(CompactionTrigger.of(CompactionOptions.defaults(), new Policy(Strategy.NUM_COMMITS, 1, HOUR),
        scheduled::add));
    deltaCommit("k1");
    assertThat(scheduled).hasSize(1);
    assertThat(timeline().pendingCompactions().times()).containsExactlyElementsOf(scheduled);
  }

  // ---------------------------------------------------------------- helpers

  private static CompactionTrigger trigger(Policy policy, Clock clock) {
    return CompactionTrigger.of(CompactionOptions.defaults(), policy, instant -> { }).clock(clock);
  }

  /** A clock stopped at {@code after} past the time of {@code instant} (the table's timeline is UTC). */
  private static Clock at(String instant, Duration after) {
    return Clock.fixed(InstantTime.parseToDateTime(instant).plus(after).toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
  }

  /** One delta commit appending {@code key} to the one file group; its instant time. */
  private String deltaCommit(String key) {
    String instant = committer.begin();
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", key);
    r.put("ts", 1L);
    r.put("dt", DT);
    var record = RecordKeyer.forTable(table.config()).toWriteRecord(r);
    var context = WriteTaskContext.of(table, instant, 0, 1, 0, SCHEMA, WriteOptions.defaults());
    var slice = FileSystemViewLoader.load(table, timeline()).latestSliceForWrite(GROUP);
    WriteStat stat = AppendHandle.of(context, GROUP, slice).append(List.of(record)).orElseThrow();
    Optional<io.riverbed.format.timeline.CommitMetadata> done = committer.commit(Committable.of(++checkpoint, instant,
        List.of(CommitMessage.of(0, instant, List.of(stat)))));
    assertThat(done).isPresent();
    return instant;
  }

  private Timeline timeline() {
    return TimelineStore.at(table.fs(), table.metaPath()).load();
  }
}
