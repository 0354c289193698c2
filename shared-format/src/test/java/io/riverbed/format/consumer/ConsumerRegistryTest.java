package io.riverbed.format.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.TimelineStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The consumer registry's files in the table: register, advance, list, remove, expiry, and crashes between steps. */
class ConsumerRegistryTest {
  static final java.time.Instant T0 = java.time.Instant.parse("2026-01-01T00:00:00Z");

  @TempDir java.nio.file.Path dir;
  Table table;
  MutableClock clock;
  ConsumerRegistry consumers;

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    java.time.Instant now = T0;

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.time.Instant instant() {
      return now;
    }
  }

  @BeforeEach
  void createTable() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    table = Table.create(fs, new Path(dir.toUri().toString(), "t"),
        TableConfig.builder("t").type(TableType.MERGE_ON_READ).build());
    clock = new MutableClock();
    consumers = ConsumerRegistry.of(table, clock);
  }

  private List<String> files() throws Exception {
    return Arrays.stream(table.fs().listStatus(consumers.folder())).map(s -> s.getPath().getName()).sorted().toList();
  }

  @Test
  void aRegisteredConsumerIsAFileInTheTableHoldingItsPositionAndWhenItWasRecorded() throws Exception {
    Consumer etl = consumers.register("etl", "20260101000000000");

    assertThat(etl).isEqualTo(new Consumer("etl", "20260101000000000", T0, 1));
    assertThat(consumers.folder()).isEqualTo(new Path(table.metaPath(), ".aux/riverbed/consumers"));
    assertThat(files()).containsExactly("etl.1");
    assertThat(Files.readString(java.nio.file.Path.of(new Path(consumers.folder(), "etl.1").toUri())))
        .isEqualTo("id=etl\nposition=20260101000000000\nadvanced.at.millis=" + T0.toEpochMilli() + "\n");
    assertThat(ConsumerRegistry.of(table).get("etl")).contains(etl);
    assertThat(consumers.get("other")).isEmpty();
  }

  @Test
  void advancingWritesTheNextVersionAndDeletesTheOlderOne() throws Exception {
    consumers.register("etl", "20260101000000000");
    clock.now = T0.plusSeconds(60);

    Consumer moved = consumers.advance("etl", "20260101000500000");

    assertThat(moved).isEqualTo(new Consumer("etl", "20260101000500000", T0.plusSeconds(60), 2));
    assertThat(files()).containsExactly("etl.2");
    assertThat(consumers.get("etl")).contains(moved);
    assertThat(consumers.advance("etl", "20260101000100000").position()).as("a position may also move back")
        .isEqualTo("20260101000100000");
    assertThat(files()).containsExactly("etl.3");
  }

  @Test
  void advancingAnUnknownConsumerRegistersIt() throws Exception {
    assertThat(consumers.advance("new-reader", "000")).isEqualTo(new Consumer("new-reader", "000", T0, 1));
    assertThat(files()).containsExactly("new-reader.1");
  }

  @Test
  void registeringAConsumerTwiceIsRefused() {
    consumers.register("etl", "20260101000000000");
    assertThatThrownBy(() -> consumers.register("etl", "20260102000000000")).isInstanceOf(TableException.class)
        .hasMessage("consumer etl of table " + table.basePath() + " is registered already at 20260101000000000");
  }

  @Test
  void listReturnsEveryConsumerByIdAndRemoveDeletesOne() throws Exception {
    consumers.register("b.reader", "20260101000000000");
    consumers.register("a", "20260103000000000");
    consumers.advance("b.reader", "20260102000000000");

    assertThat(consumers.list()).extracting(Consumer::id, Consumer::position, Consumer::version)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "20260103000000000", 1L),
            org.assertj.core.groups.Tuple.tuple("b.reader", "20260102000000000", 2L));

    assertThat(consumers.remove("b.reader")).isTrue();
    assertThat(consumers.remove("b.reader")).isFalse();
    assertThat(consumers.list()).extracting(Consumer::id).containsExactly("a");
    assertThat(consumers.register("b.reader", "20260104000000000").version()).as("registered anew").isEqualTo(1);
  }

  @Test
  void aTableWithoutConsumersListsNone() {
    assertThat(consumers.list()).isEmpty();
    assertThat(consumers.remove("etl")).isFalse();
  }

  @Test
  void aCrashBetweenWritingTheNewVersionAndDeletingTheOldLeavesTheNewPositionVisible() throws Exception {
    consumers.register("etl", "20260101000000000");
    // As a recorder that crashed after creating version 2 leaves it: both files there.
    Files.writeString(java.nio.file.Path.of(new Path(consumers.folder(), "etl.2").toUri()),
        "id=etl\nposition=20260102000000000\nadvanced.at.millis=" + T0.plusSeconds(5).toEpochMilli() + "\n",
        StandardCharsets.ISO_8859_1);

    assertThat(consumers.get("etl").orElseThrow().position()).isEqualTo("20260102000000000");
    assertThat(consumers.list()).hasSize(1);
    consumers.advance("etl", "20260103000000000");
    assertThat(files()).containsExactly("etl.3");
  }

  @Test
  void filesThatAreNotConsumersAreSkippedAndADamagedOneFailsNamingIt() throws Exception {
    consumers.register("etl", "20260101000000000");
    table.fs().create(new Path(consumers.folder(), "README.txt")).close();
    assertThat(consumers.list()).extracting(Consumer::id).containsExactly("etl");

    Path damaged = new Path(consumers.folder(), "broken.1");
    Files.writeString(java.nio.file.Path.of(damaged.toUri()), "id=broken\n", StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> consumers.list()).isInstanceOf(TableException.class)
        .hasMessageContaining("damaged consumer file " + damaged).hasMessageContaining("consumer remove");
    assertThat(consumers.remove("broken")).isTrue();
    assertThat(consumers.list()).extracting(Consumer::id).containsExactly("etl");
  }

  @Test
  void badIdsAndPositionsAreRefused() {
    assertThatThrownBy(() -> consumers.register("../x", "000")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'../x' is not a consumer id");
    assertThatThrownBy(() -> consumers.register(".hidden", "000")).hasMessageContaining("not a consumer id");
    assertThatThrownBy(() -> consumers.register("a b", "000")).hasMessageContaining("not a consumer id");
    assertThatThrownBy(() -> consumers.advance("etl", "yesterday")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 'yesterday' is not an instant time");
  }

  @Test
  void aConsumerExpiresWhenItsPositionWasNotRecordedWithinTheExpiration() {
    Consumer etl = consumers.register("etl", "20260101000000000");
    Duration week = Duration.ofDays(7);

    assertThat(etl.isExpired(T0.plus(week), week)).as("at the expiration").isFalse();
    assertThat(etl.isExpired(T0.plus(week).plusMillis(1), week)).isTrue();
    clock.now = T0.plus(week).plusSeconds(1);
    Consumer renewed = consumers.advance("etl", etl.position());
    assertThat(renewed.isExpired(clock.now, week)).as("recording the same position renews it").isFalse();
  }

  @Test
  void thePinIsTheOldestLiveConsumerAndTheFirstCompletedWriteAfterIt() {
    TimelineStore store = table.timelineStore();
    for (String t : List.of("20260101000000000", "20260102000000000", "20260103000000000")) {
      store.complete(store.transitionToInflight(store.createRequested(t, Action.DELTA_COMMIT, new byte[0]),
          new byte[0]), "{}".getBytes(StandardCharsets.UTF_8));
    }
    store.createRequested("20260104000000000", Action.DELTA_COMMIT, new byte[0]);
    Timeline timeline = table.refreshTimeline();
    ConsumerOptions week = ConsumerOptions.defaults();

    assertThat(ConsumerPin.find(table, timeline, T0, week)).as("no consumer").isEmpty();
    consumers.register("slow", "20260101000000000");
    clock.now = T0.plus(Duration.ofDays(3));
    consumers.register("fast", "20260102000000000");

    ConsumerPin pin = ConsumerPin.find(table, timeline, clock.now, week).orElseThrow();
    assertThat(pin.consumer().id()).isEqualTo("slow");
    assertThat(pin.firstNeeded().time()).isEqualTo("20260102000000000");

    java.time.Instant slowExpired = T0.plus(Duration.ofDays(8));
    assertThat(ConsumerPin.find(table, timeline, slowExpired, week).orElseThrow().consumer().id()).isEqualTo("fast");
    assertThat(ConsumerPin.find(table, timeline, slowExpired, week).orElseThrow().firstNeeded().time())
        .isEqualTo("20260103000000000");
    assertThat(ConsumerPin.find(table, timeline, T0.plus(Duration.ofDays(11)), week)).as("both expired").isEmpty();

    consumers.remove("slow");
    consumers.advance("fast", "20260103000000000");
    assertThat(ConsumerPin.find(table, timeline, clock.now, week)).as("nothing completed after its position")
        .isEmpty();
  }
}
