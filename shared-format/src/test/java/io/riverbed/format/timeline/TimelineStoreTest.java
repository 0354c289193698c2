package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.CommitConflictException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineStoreTest {
  @TempDir java.nio.file.Path dir;
  FileSystem fs;
  TimelineStore store;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration()).getRaw();
    Path meta = new Path(dir.toUri().toString(), ".hoodie");
    fs.mkdirs(new Path(meta, ".temp"));
    store = TimelineStore.at(fs, meta);
  }

  @Test
  void transitionsLeaveEveryStateFileAndLoadAsCompleted() {
    Instant req = store.createRequested("20250101000000000", Action.DELTA_COMMIT, new byte[0]);
    Instant inflight = store.transitionToInflight(req, new byte[0]);
    assertThat(store.load().instants()).containsExactly(inflight);
    Instant done = store.complete(inflight, "{}".getBytes(StandardCharsets.UTF_8));
    assertThat(store.statesOf("20250101000000000")).hasSize(3);
    assertThat(store.load().instants()).containsExactly(done);
    assertThat(new String(store.read(done), StandardCharsets.UTF_8)).isEqualTo("{}");
  }

  @Test
  void completingTwiceIsAConflictAndKeepsTheFirstContent() {
    Instant inflight = store.transitionToInflight(store.createRequested("20250101000000000", Action.COMMIT, new byte[0]), new byte[0]);
    store.complete(inflight, "first".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> store.complete(inflight, "second".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(CommitConflictException.class).hasMessageContaining("20250101000000000.commit");
    assertThat(new String(store.read(Instant.completed("20250101000000000", Action.COMMIT)), StandardCharsets.UTF_8)).isEqualTo("first");
  }

  @Test
  void noTemporaryFileIsLeftInTheTimelineFolder() throws Exception {
    store.createRequested("20250101000000000", Action.COMMIT, new byte[0]);
    assertThat(fs.listStatus(new Path(store.metaPath(), ".temp"))).isEmpty();
  }

  @Test
  void deleteAllStatesRemovesOnlyThatInstant() {
    Instant a = store.transitionToInflight(store.createRequested("20250101000000000", Action.DELTA_COMMIT, new byte[0]), new byte[0]);
    store.createRequested("20250101000000001", Action.DELTA_COMMIT, new byte[0]);
    store.deleteAllStates(a.time(), Action.DELTA_COMMIT);
    assertThat(store.load().times()).containsExactly("20250101000000001");
  }

  @Test
  void currentRemembersTheLastListingUntilThisStoreChangesTheTimeline() {
    store.createRequested("20250101000000000", Action.COMMIT, new byte[0]);
    Timeline listed = store.load();
    assertThat(store.current()).isSameAs(listed);

    TimelineStore other = TimelineStore.at(fs, store.metaPath());
    other.createRequested("20250101000000001", Action.COMMIT, new byte[0]);
    assertThat(store.current().times()).as("another store's change is seen only after a refresh")
        .containsExactly("20250101000000000");
    assertThat(store.currentWith("20250101000000001").times()).as("asking for an instant not remembered lists again")
        .containsExactly("20250101000000000", "20250101000000001");

    store.createRequested("20250101000000002", Action.COMMIT, new byte[0]);
    assertThat(store.current().times()).as("its own change lists again")
        .containsExactly("20250101000000000", "20250101000000001", "20250101000000002");
    store.delete(Instant.requested("20250101000000002", Action.COMMIT));
    assertThat(store.current().times()).containsExactly("20250101000000000", "20250101000000001");
  }

  @Test
  void aFailedCreateStillForgetsTheRememberedTimeline() {
    store.createRequested("20250101000000000", Action.COMMIT, new byte[0]);
    TimelineStore other = TimelineStore.at(fs, store.metaPath());
    other.createRequested("20250101000000001", Action.COMMIT, new byte[0]);
    store.load();
    other.transitionToInflight(Instant.requested("20250101000000001", Action.COMMIT), new byte[0]);
    assertThatThrownBy(() -> store.transitionToInflight(Instant.requested("20250101000000001", Action.COMMIT),
        new byte[0])).isInstanceOf(CommitConflictException.class);
    assertThat(store.current().instants()).as("the conflict is seen").contains(
        Instant.inflight("20250101000000001", Action.COMMIT));
  }
}
