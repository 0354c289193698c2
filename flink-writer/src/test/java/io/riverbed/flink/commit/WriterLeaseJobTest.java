package io.riverbed.flink.commit;

import static io.riverbed.flink.sink.WriterFixtures.ROW_TYPE;
import static io.riverbed.flink.sink.WriterFixtures.env;
import static io.riverbed.flink.sink.WriterFixtures.options;
import static io.riverbed.flink.sink.WriterFixtures.read;
import static io.riverbed.flink.sink.WriterFixtures.rows;
import static io.riverbed.flink.sink.WriterFixtures.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.sink.ChunkedSource;
import io.riverbed.flink.sink.RiverbedSink;
import io.riverbed.flink.sink.WriterFixtures.Change;
import io.riverbed.flink.sink.WriterFixtures;
import io.riverbed.format.CommitConflictException;
import io.riverbed.format.testing.Await;
import io.riverbed.format.write.WriterLease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Two jobs on one table: the second fails at start naming the first; nothing of it is committed. */
class WriterLeaseJobTest {
  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

  @TempDir
  Path dir;

  @Test
  void aSecondJobOnATableAnotherJobWritesFailsNamingIt() throws Exception {
    var options = options(dir, "MERGE_ON_READ");
    var first = List.of(List.of(new Change("k1", "first", 1, 0, false, false)));
    var env = env(1, 0);
    // one chunk, then it idles for many checkpoints: the first job runs while the second starts
    ChunkedSource.register("lease-first", rows(first));
    var stream = env.addSource(new ChunkedSource("lease-first", 100_000), "chunks-main", InternalTypeInfo.of(ROW_TYPE))
        .setParallelism(1);
    RiverbedSink.forRowData(ROW_TYPE, options).sinkTo(stream);
    var running = env.executeAsync("lease-first");
    try {
      Path lease = dir.resolve("table").resolve(".hoodie").resolve(WriterLease.FILE);
      Await.await("the first job's commit", Duration.ofMinutes(2)).until(() -> !read(table(options)).isEmpty());
      assertThat(Files.exists(lease)).isTrue();

      var second = List.of(List.of(new Change("k1", "second", 2, 0, false, false),
          new Change("k2", "second", 2, 0, false, false)));
      assertThatThrownBy(() -> WriterFixtures.write("lease-second", second, options, 1, 0, 0))
          .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, CommitConflictException.class))
              .hasValueSatisfying(c -> assertThat(c).hasMessageContaining("is being written by another writer")
                  .hasMessageContaining("Flink job " + running.getJobID())));
      assertThat(read(table(options))).isEqualTo(Map.of("k1", "first|1|eu/fr/paris"));
    } finally {
      running.cancel().get();
    }
  }
}
