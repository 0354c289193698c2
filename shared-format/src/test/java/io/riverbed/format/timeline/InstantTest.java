package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InstantTest {

  @Test
  void fileNamesFollowLayoutVersionOne() {
    assertThat(Instant.requested("20250101000000000", Action.COMMIT).fileName()).isEqualTo("20250101000000000.commit.requested");
    assertThat(Instant.inflight("20250101000000000", Action.COMMIT).fileName()).isEqualTo("20250101000000000.inflight");
    assertThat(Instant.inflight("20250101000000000", Action.DELTA_COMMIT).fileName()).isEqualTo("20250101000000000.deltacommit.inflight");
    assertThat(Instant.completed("20250101000000000", Action.DELTA_COMMIT).fileName()).isEqualTo("20250101000000000.deltacommit");
    assertThat(Instant.completed("20250101000000000", Action.COMPACTION).fileName()).isEqualTo("20250101000000000.commit");
  }

  @Test
  void parsesEveryStateBackFromItsFileName() {
    for (Action a : Action.values()) {
      for (State s : State.values()) {
        Instant i = new Instant("20250101000000000", s == State.COMPLETED ? a.completedAs() : a, s);
        assertThat(Instant.parseFileName(i.fileName())).contains(i);
      }
    }
  }

  @Test
  void ignoresFilesThatAreNotInstants() {
    assertThat(Instant.parseFileName("hoodie.properties")).isEmpty();
    assertThat(Instant.parseFileName("20250101000000000.unknown")).isEmpty();
    assertThat(Instant.parseFileName("20250101000000000.compaction")).isEmpty();
    assertThat(Instant.parseFileName(".aux")).isEmpty();
  }

  @Test
  void timelineKeepsHighestStateOfEachInstant() {
    String t = "20250101000000000";
    Timeline tl = Timeline.fromInstants(java.util.List.of(
        Instant.requested(t, Action.COMPACTION), Instant.inflight(t, Action.COMPACTION), Instant.completed(t, Action.COMPACTION),
        Instant.requested("20250101000000001", Action.DELTA_COMMIT)));
    assertThat(tl.instants()).containsExactly(Instant.completed(t, Action.COMMIT), Instant.requested("20250101000000001", Action.DELTA_COMMIT));
    assertThat(tl.pendingCompactions().isEmpty()).isTrue();
    assertThat(tl.completedAndCompactionInstants().times()).containsExactly(t);
  }

  @Test
  void committedPredicateTreatsArchivedAsCommittedAndInflightAsNot() {
    Timeline tl = Timeline.fromInstants(java.util.List.of(
        Instant.completed("20250101000000005", Action.DELTA_COMMIT),
        Instant.inflight("20250101000000007", Action.DELTA_COMMIT),
        Instant.completed("20250101000000009", Action.DELTA_COMMIT)));
    InstantCommittedPredicate committed = InstantCommittedPredicate.of(tl);
    assertThat(committed.test("20250101000000001")).isTrue();
    assertThat(committed.test("20250101000000005")).isTrue();
    assertThat(committed.test("20250101000000007")).isFalse();
    assertThat(committed.test("20250101000000008")).isFalse();
  }

  @Test
  void layoutTwoCompletedNameCarriesRequestedAndCompletionTime() {
    var named = Instant.parseFileNameV2("20261207063500022_20261207063504236.deltacommit").orElseThrow();
    assertThat(named.instant()).isEqualTo(Instant.completed("20261207063500022", Action.DELTA_COMMIT));
    assertThat(named.completionTime()).isEqualTo("20261207063504236");
    assertThat(named.instant().fileNameV2(named.completionTime()))
        .isEqualTo("20261207063500022_20261207063504236.deltacommit");
    var inflight = Instant.parseFileNameV2("20261207063522218.inflight").orElseThrow();
    assertThat(inflight.instant()).isEqualTo(Instant.inflight("20261207063522218", Action.COMMIT));
    assertThat(inflight.completionTime()).isNull();
    assertThat(Instant.parseFileNameV2("20261207063504537.compaction.requested").orElseThrow().instant())
        .isEqualTo(Instant.requested("20261207063504537", Action.COMPACTION));
    assertThat(Instant.parseFileNameV2("20261207063504537.deltacommit")).isEmpty();
    assertThat(Instant.parseFileNameV2("history")).isEmpty();
  }
}
