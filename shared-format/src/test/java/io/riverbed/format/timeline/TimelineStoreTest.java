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
}
