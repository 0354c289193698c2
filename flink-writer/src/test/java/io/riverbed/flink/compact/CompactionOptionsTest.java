package io.riverbed.flink.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.flink.sink.FlinkWriteOptions;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.commit.CompactionTrigger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The writer's compaction options, under Hudi's Flink names, and the defaults Riverbed keeps. */
class CompactionOptionsTest {
  private static FlinkWriteOptions options(String... keyValues) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(FlinkWriteOptions.PATH, "/lake/trips");
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return FlinkWriteOptions.fromMap(m);
  }

  @Test
  void byDefaultNothingIsScheduledOrRunAndSchedulingFollowsTheAsyncOption() {
    FlinkWriteOptions defaults = options();
    assertThat(defaults.compactionAsyncEnabled()).isFalse();
    assertThat(defaults.compactionScheduleEnabled()).isFalse();
    assertThat(defaults.runsCompactionStage()).isFalse();

    FlinkWriteOptions async = options(FlinkWriteOptions.COMPACTION_ASYNC, "true");
    assertThat(async.compactionScheduleEnabled()).isTrue();
    assertThat(async.runsCompactionStage()).isTrue();
    assertThat(options(FlinkWriteOptions.COMPACTION_ASYNC, "true", FlinkWriteOptions.COMPACTION_SCHEDULE, "false")
        .compactionScheduleEnabled()).isFalse();
    assertThat(options(FlinkWriteOptions.COMPACTION_SCHEDULE, "true").compactionScheduleEnabled())
        .as("plans for an offline compactor").isTrue();
    assertThat(options(FlinkWriteOptions.COMPACTION_ASYNC, "true", "table.type", "COPY_ON_WRITE").runsCompactionStage())
        .isFalse();
  }

  @Test
  void theTriggerPolicyReadsHudisStrategyDeltaCommitsAndDeltaSeconds() {
    assertThat(options().compactionPolicy())
        .isEqualTo(new CompactionTrigger.Policy(CompactionTrigger.Strategy.NUM_COMMITS, 5, Duration.ofHours(1)));
    assertThat(options(FlinkWriteOptions.COMPACTION_TRIGGER_STRATEGY, "num_or_time",
        FlinkWriteOptions.COMPACTION_DELTA_COMMITS, "3", FlinkWriteOptions.COMPACTION_DELTA_SECONDS, "120")
        .compactionPolicy())
        .isEqualTo(new CompactionTrigger.Policy(CompactionTrigger.Strategy.NUM_OR_TIME, 3, Duration.ofSeconds(120)));
    assertThatThrownBy(() -> options(FlinkWriteOptions.COMPACTION_TRIGGER_STRATEGY, "sometimes"))
        .hasMessageContaining(FlinkWriteOptions.COMPACTION_TRIGGER_STRATEGY).hasMessageContaining("sometimes");
    assertThatThrownBy(() -> options(FlinkWriteOptions.COMPACTION_DELTA_SECONDS, "0"))
        .hasMessageContaining(FlinkWriteOptions.COMPACTION_DELTA_SECONDS);
  }

  @Test
  void compactionTasksDefaultToTheWritersParallelism() {
    assertThat(options().compactionTasksOr(3)).isEqualTo(3);
    assertThat(options(FlinkWriteOptions.COMPACTION_TASKS, "5").compactionTasksOr(3)).isEqualTo(5);
    assertThatThrownBy(() -> options(FlinkWriteOptions.COMPACTION_TASKS, "0"))
        .hasMessageContaining(FlinkWriteOptions.COMPACTION_TASKS);
  }

  @Test
  void maxMemoryIsMegabytesWithHudisFlinkDefaultUnlessTheCoreKeyIsSet() {
    assertThat(options().compactionOptions().memoryBudgetBytes()).isEqualTo(100L * 1024 * 1024);
    assertThat(options(FlinkWriteOptions.COMPACTION_MAX_MEMORY, "0.5").compactionOptions().memoryBudgetBytes())
        .isEqualTo(512L * 1024);
    assertThat(options(CompactionOptions.MAX_MEMORY, "4096").compactionOptions().memoryBudgetBytes()).isEqualTo(4096);
    assertThat(options(CompactionOptions.MAX_MEMORY, "4096", FlinkWriteOptions.COMPACTION_MAX_MEMORY, "1")
        .compactionOptions().memoryBudgetBytes()).as("the Flink option wins").isEqualTo(1024L * 1024);
    assertThat(options(CompactionOptions.LOG_FILE_NUM_THRESHOLD, "3").compactionOptions().minLogFiles()).isEqualTo(3);
  }
}
