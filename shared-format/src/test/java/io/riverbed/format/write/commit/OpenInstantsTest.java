package io.riverbed.format.write.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Which instant a writer subtask gets for an epoch. */
class OpenInstantsTest {
  private final List<String> begun = new ArrayList<>();
  private final Supplier<String> begin = () -> {
    String t = String.format("2026120100000%04d", begun.size());
    begun.add(t);
    return t;
  };

  @Test
  void writersOfOneEpochShareItsInstantAndTheNextEpochGetsANewOne() {
    OpenInstants open = new OpenInstants();
    String t0 = open.assign(0, 0, null, begin);
    assertThat(open.assign(1, 0, null, begin)).isEqualTo(t0);
    String t1 = open.assign(0, 1, t0, begin);
    assertThat(t1).isGreaterThan(t0);
    assertThat(open.writers(t0)).containsExactlyInAnyOrder(0, 1);
    assertThat(open.writers(t1)).containsExactly(0);
  }

  @Test
  void aLateWriterJoinsTheNewestInstant() {
    OpenInstants open = new OpenInstants();
    String t3 = open.assign(1, 3, null, begin); // subtask 1 snapshotted checkpoint 3
    assertThat(open.assign(0, 2, null, begin)).as("subtask 0, barrier 3 not seen yet").isEqualTo(t3);
    assertThat(begun).hasSize(1);
  }

  /**
   * The race a loaded machine hit: subtask 0 joined the instant subtask 1 opened after checkpoint
   * c, reported it at c, and asked again in epoch c. Given the same instant again, it rewrote a
   * COPY_ON_WRITE file group into it (a second base file of one instant: the job failed on a file
   * name, or a reader dropped one of the two files).
   */
  @Test
  void aWriterIsNeverGivenAgainTheInstantItReportedInItsPreviousEpoch() {
    OpenInstants open = new OpenInstants();
    String t = open.assign(1, 3, null, begin);
    assertThat(open.assign(0, 2, null, begin)).isEqualTo(t);
    String next = open.assign(0, 3, t, begin);
    assertThat(next).isNotEqualTo(t).isGreaterThan(t);
    assertThat(open.writers(t)).containsExactlyInAnyOrder(0, 1);
    assertThat(open.writers(next)).containsExactly(0);
    assertThat(open.assign(2, 2, null, begin)).as("a later writer joins the newest").isEqualTo(next);
  }

  @Test
  void aCommittedInstantIsForgotten() {
    OpenInstants open = new OpenInstants();
    String t = open.assign(0, 0, null, begin);
    open.remove(t);
    assertThat(open.isEmpty()).isTrue();
    assertThat(open.writers(t)).isEmpty();
    assertThat(open.assign(0, 0, null, begin)).isNotEqualTo(t);
  }

  @Test
  void wouldBeginTellsAheadWhetherAssignOpensANewInstant() {
    OpenInstants open = new OpenInstants();
    assertThat(open.wouldBegin(0, null)).as("nothing open").isTrue();
    String t = open.assign(0, 1, null, begin);
    assertThat(open.wouldBegin(1, null)).as("same epoch").isFalse();
    assertThat(open.wouldBegin(0, null)).as("a late writer").isFalse();
    assertThat(open.wouldBegin(2, t)).as("the next epoch").isTrue();
    assertThat(open.wouldBegin(1, t)).as("the instant the writer reported").isTrue();
    assertThat(begun).hasSize(1);
  }
}
