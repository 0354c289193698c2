package io.riverbed.admin;

import io.riverbed.format.TableException;
import io.riverbed.format.base.BaseFileOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.ActiveTimeline;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.CompactionOptions;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code compact}: schedules and runs compactions of a MERGE_ON_READ table, offline. */
@Command(name = "compact",
    description = {"Runs compaction offline: every pending compaction, oldest first, or, when none is pending, a new "
        + "one scheduled now (all file groups with log files that pass the thresholds). The table's writer must not "
        + "schedule or run compactions at the same time (single writer, as Hudi assumes without a lock provider)."})
final class CompactCommand extends TableCommand {
  @Option(names = "--instant", paramLabel = "T", description = "Run only the pending compaction T; with "
      + "--schedule-only, the instant time of the compaction to schedule.")
  String instant;

  @Option(names = "--schedule-only", description = "Write the plan (T.compaction.requested) and stop; a running "
      + "writer with compaction enabled, or a later 'compact', runs it.")
  boolean scheduleOnly;

  @Option(names = "--option", paramLabel = "KEY=VALUE", description = "A compaction option under its Hudi name "
      + "(repeatable): the Compaction and Base files options of docs/OPTIONS.md.")
  List<String> options = new ArrayList<>();

  /** One compaction run: what its commit wrote. */
  record Run(String instant, int baseFilesWritten, long recordsWritten, long bytesWritten) {}

  /**
   * What the command did.
   *
   * @param scheduled the compaction scheduled by this call, if any
   * @param fileGroupsPlanned the file groups its plan compacts
   * @param reason why nothing was scheduled, when the command tried and did not
   */
  record Result(String scheduled, Integer fileGroupsPlanned, String reason, List<Run> compactions) {}

  @Override
  void run(Table table, Output out) {
    CompactionOptions compaction = ServiceOptions.read(commandLine(), options, knownKeys(), CompactionOptions::fromMap);
    ActiveTimeline active = ActiveTimeline.load(table);
    String scheduled = null;
    Integer planned = null;
    String reason = null;
    List<String> toRun = new ArrayList<>();
    if (scheduleOnly || (instant == null && active.pendingCompactions().isEmpty())) {
      var scheduler = CompactionScheduler.of(table).options(compaction);
      if (scheduleOnly && instant != null) {
        scheduler.instantTime(instant);
      }
      CompactionScheduler.Result result = scheduler.execute();
      scheduled = result.instantTime().orElse(null);
      planned = result.plan().map(p -> p.operations().size()).orElse(null);
      reason = result.isScheduled() ? null : result.reason();
      if (!scheduleOnly) {
        result.instantTime().ifPresent(toRun::add);
      }
    } else if (instant != null) {
      State state = active.compactionState(instant).orElseThrow(() -> new TableException("table "
          + table.basePath() + " has no compaction at " + instant + " ('compactions' lists them)"));
      if (state == State.COMPLETED) {
        throw new TableException("compaction " + instant + " of table " + table.basePath() + " is already completed");
      }
      toRun.add(instant);
    } else {
      toRun.addAll(active.pendingCompactions());
    }
    List<Run> runs = new ArrayList<>();
    for (String time : toRun) {
      runs.add(run(time, CompactionRunner.of(table, time).options(compaction).execute()));
    }
    print(out, new Result(scheduled, planned, reason, runs));
  }

  private static Run run(String time, CommitMetadata done) {
    List<WriteStat> stats = done.writeStats();
    return new Run(time, stats.size(), stats.stream().mapToLong(WriteStat::numWrites).sum(),
        stats.stream().mapToLong(WriteStat::totalWriteBytes).sum());
  }

  private void print(Output out, Result result) {
    if (out.isJson()) {
      out.json(result);
      return;
    }
    Optional.ofNullable(result.scheduled()).ifPresent(t -> out.line("Scheduled compaction " + t + ": "
        + result.fileGroupsPlanned() + " file groups planned."));
    Optional.ofNullable(result.reason()).ifPresent(r -> out.line("No compaction scheduled: " + r + "."));
    if (!result.compactions().isEmpty()) {
      out.table(TextTable.of(result.compactions()).column("COMPACTION", Run::instant)
          .column("BASE_FILES_WRITTEN", Run::baseFilesWritten).column("RECORDS_WRITTEN", Run::recordsWritten)
          .column("BYTES_WRITTEN", Run::bytesWritten));
    }
  }

  private static Set<String> knownKeys() {
    Set<String> keys = new HashSet<>(CompactionOptions.DESCRIPTIONS.keySet());
    keys.addAll(BaseFileOptions.DESCRIPTIONS.keySet());
    return keys;
  }
}
