package io.riverbed.format.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class FileSystemViewTest {
  static final String T1 = "20250101000000001";
  static final String T2 = "20250101000000002";
  static final String T3 = "20250101000000003";
  static final String T4 = "20250101000000004";
  static final String T5 = "20250101000000005";
  static final FileGroupId G = new FileGroupId("a/b/c", "g1");

  static FileStatus file(String name) {
    return new FileStatus(10, false, 1, 1, 0, new Path("/t/a/b/c/" + name));
  }

  @Test
  void logOnlyGroupOfAnInflightInstantIsInvisible() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.DELTA_COMMIT), Instant.inflight(T2, Action.DELTA_COMMIT)));
    FileSystemView view = FileSystemView.build(tl,
        Map.of("a/b/c", List.of(file(".g1_" + T1 + ".log.1_0-1-0"), file(".g2_" + T2 + ".log.1_0-1-0"))), Map.of(), Map.of());
    assertThat(view.latestMergedSlices(T2)).extracting(FileSlice::fileId).containsExactly("g1");
  }

  @Test
  void baseFileOfAnUncommittedInstantIsIgnored() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.COMMIT), Instant.inflight(T2, Action.COMMIT)));
    FileSystemView view = FileSystemView.build(tl,
        Map.of("a/b/c", List.of(file("g1_0-1-0_" + T1 + ".parquet"), file("g1_0-1-0_" + T2 + ".parquet"))), Map.of(), Map.of());
    assertThat(view.latestMergedSlices(T5)).singleElement().satisfies(s -> assertThat(s.baseInstant()).isEqualTo(T1));
  }

  @Test
  void pendingCompactionMergesNewLogsOntoThePreviousSlice() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.DELTA_COMMIT),
        Instant.requested(T2, Action.COMPACTION), Instant.completed(T3, Action.DELTA_COMMIT)));
    FileSystemView view = FileSystemView.build(tl, Map.of("a/b/c", List.of(
        file("g1_0-1-0_" + T1 + ".parquet"), file(".g1_" + T1 + ".log.1_0-1-0"),
        file("g1_0-1-0_" + T2 + ".parquet"), file(".g1_" + T2 + ".log.1_0-1-0"))), Map.of(G, T2), Map.of());
    FileSlice s = view.latestMergedSlices(T3).get(0);
    assertThat(s.baseInstant()).isEqualTo(T1);
    assertThat(s.baseFile().orElseThrow().instantTime()).isEqualTo(T1);
    assertThat(s.logFiles()).extracting(LogFile::baseInstant).containsExactly(T1, T2);
    assertThat(view.latestBaseFileSlices(T3)).singleElement().satisfies(b -> assertThat(b.baseInstant()).isEqualTo(T1));
    assertThat(view.latestSliceForWrite(G).orElseThrow().baseInstant()).isEqualTo(T2);
  }

  @Test
  void completedCompactionStartsANewSlice() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.DELTA_COMMIT),
        Instant.requested(T2, Action.COMPACTION), Instant.completed(T2, Action.COMPACTION), Instant.completed(T3, Action.DELTA_COMMIT)));
    FileSystemView view = FileSystemView.build(tl, Map.of("a/b/c", List.of(
        file("g1_0-1-0_" + T1 + ".parquet"), file(".g1_" + T1 + ".log.1_0-1-0"),
        file("g1_0-1-0_" + T2 + ".parquet"), file(".g1_" + T2 + ".log.1_0-1-0"))), Map.of(), Map.of());
    assertThat(view.latestMergedSlices(T3).get(0).baseInstant()).isEqualTo(T2);
    assertThat(view.latestMergedSlices(T1).get(0).baseInstant()).isEqualTo(T1);
  }

  @Test
  void replacedGroupIsHiddenFromTheReplaceInstantOn() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.COMMIT), Instant.completed(T4, Action.REPLACE_COMMIT)));
    FileSystemView view = FileSystemView.build(tl, Map.of("a/b/c", List.of(
        file("g1_0-1-0_" + T1 + ".parquet"), file("g2_0-1-0_" + T4 + ".parquet"))), Map.of(), Map.of(G, T4));
    assertThat(view.latestMergedSlices(T4)).extracting(FileSlice::fileId).containsExactly("g2");
    assertThat(view.latestMergedSlices(T3)).extracting(FileSlice::fileId).containsExactly("g1");
  }

  @Test
  void filesOlderThanTheActiveTimelineCountAsCommitted() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T3, Action.COMMIT)));
    FileSystemView view = FileSystemView.build(tl, Map.of("a/b/c", List.of(file("g1_0-1-0_" + T1 + ".parquet"))), Map.of(), Map.of());
    assertThat(view.latestMergedSlices(T3)).hasSize(1);
  }

  @Test
  void baseFileOfAPendingInstantOlderThanEveryCompletedOneIsIgnored() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.inflight(T1, Action.COMMIT), Instant.completed(T3, Action.COMMIT)));
    FileSystemView view = FileSystemView.build(tl,
        Map.of("a/b/c", List.of(file("g1_0-1-0_" + T1 + ".parquet"), file("g2_0-1-0_" + T3 + ".parquet"))), Map.of(), Map.of());
    assertThat(view.latestMergedSlices(T3)).extracting(FileSlice::fileId).containsExactly("g2");
  }

  @Test
  void versionEightLogJoinsTheSliceItsDeltaCommitCompletedIn() {
    // a delta commit requested at T2 completes at T4, after a compaction requested and completed at T3
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.DELTA_COMMIT),
        Instant.requested(T2, Action.DELTA_COMMIT), Instant.completed(T2, Action.DELTA_COMMIT),
        Instant.requested(T3, Action.COMPACTION), Instant.completed(T3, Action.COMPACTION)),
        Map.of(T1, T1, T2, T4, T3, T3));
    FileSystemView view = FileSystemView.build(tl, Map.of("a/b/c", List.of(
        file("g1_0-1-0_" + T1 + ".parquet"), file("g1_0-1-0_" + T3 + ".parquet"), file(".g1_" + T2 + ".log.1_0-1-0"),
        file(".g2_" + T1 + ".log.1_0-1-0"), file(".g2_" + T2 + ".log.1_0-1-0"))), Map.of(), Map.of(), true);

    List<FileSlice> slices = view.latestMergedSlices(T5);

    assertThat(slices).extracting(FileSlice::fileId).containsExactly("g1", "g2");
    assertThat(slices.get(0).baseInstant()).isEqualTo(T3);
    assertThat(slices.get(0).logFiles()).extracting(LogFile::baseInstant).containsExactly(T2);
    assertThat(slices.get(1).baseInstant()).isEqualTo(T1);
    assertThat(slices.get(1).logFiles()).extracting(LogFile::baseInstant).containsExactly(T1, T2);
  }

  @Test
  void versionEightLogOfPendingDeltaCommitJoinsTheNewestSlice() {
    // the delta commit requested at T2 is still pending; a compaction based a new slice at T3
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.DELTA_COMMIT),
        Instant.inflight(T2, Action.DELTA_COMMIT), Instant.completed(T3, Action.COMPACTION)), Map.of(T1, T1, T3, T3));
    FileSystemView view = FileSystemView.build(tl, Map.of("a/b/c", List.of(
        file("g1_0-1-0_" + T1 + ".parquet"), file("g1_0-1-0_" + T3 + ".parquet"), file(".g1_" + T2 + ".log.1_0-1-0"))),
        Map.of(), Map.of(), true);

    FileGroup group = view.fileGroups().iterator().next();

    assertThat(group.slices()).extracting(FileSlice::baseInstant).containsExactly(T3, T1);
    assertThat(group.slices().get(0).logFiles()).extracting(LogFile::baseInstant).containsExactly(T2);
    assertThat(group.slices().get(1).logFiles()).isEmpty();
  }

  @Test
  void versionSixLogStaysInTheSliceItsNameGives() {
    Timeline tl = Timeline.fromInstants(List.of(Instant.completed(T1, Action.DELTA_COMMIT),
        Instant.completed(T2, Action.DELTA_COMMIT), Instant.completed(T3, Action.COMPACTION)));
    FileSystemView view = FileSystemView.build(tl, Map.of("a/b/c", List.of(
        file("g1_0-1-0_" + T1 + ".parquet"), file("g1_0-1-0_" + T3 + ".parquet"), file(".g1_" + T1 + ".log.1_0-1-0"))),
        Map.of(), Map.of(), false);
    assertThat(view.latestMergedSlices(T5).get(0).logFiles()).isEmpty();
    assertThat(view.latestMergedSlices(T2).get(0).logFiles()).extracting(LogFile::baseInstant).containsExactly(T1);
  }
}
