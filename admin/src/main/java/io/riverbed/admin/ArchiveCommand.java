package io.riverbed.admin;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchiveResult;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code archive}: Hudi's timeline archival, run offline. */
@Command(name = "archive",
    description = {"Moves the oldest completed instants of the active timeline into .hoodie/archived/ (a file Hudi's "
        + "archived timeline reads; on table version 8 a file of Hudi 1.x's LSM history in .hoodie/timeline/history/) once more than --max-commits completed commits are active, down to "
        + "--min-commits; never past a savepoint, a pending write or compaction, what the last clean retained, or "
        + "what a live registered consumer reads next ('consumers')."})
final class ArchiveCommand extends TableCommand {
  private static final Set<String> KEYS = Set.of(ArchiveOptions.MIN_COMMITS, ArchiveOptions.MAX_COMMITS,
      ArchiveOptions.COMPACTION_DELTA_COMMITS, ArchiveOptions.MAX_INSTANTS_PER_RUN, ArchiveOptions.TIMELINE_COMPACTION_BATCH_SIZE,
      ConsumerOptions.EXPIRATION);

  @Option(names = "--min-commits", paramLabel = "N", description = "hoodie.keep.min.commits (default 20): "
      + "completed commits left active.")
  Integer minCommits;

  @Option(names = "--max-commits", paramLabel = "N", description = "hoodie.keep.max.commits (default 30): "
      + "completed commits above which archival runs.")
  Integer maxCommits;

  @Option(names = "--option", paramLabel = "KEY=VALUE", description = "An archival option (repeatable): the "
      + "Archival options of docs/OPTIONS.md (the writer keys; the Flink names are not read) and "
      + "riverbed.consumer.expiration. The flags above win "
      + "over the same key here.")
  List<String> options = new ArrayList<>();

  /**
   * What the archival moved.
   *
   * @param archiveFile the file written in .hoodie/archived/ (version 8: .hoodie/timeline/history/), null when nothing was due
   * @param instants the completed instants archived, oldest first
   * @param stateFiles the timeline files moved (requested, inflight and completed)
   * @param backlog true when more instants are due than one run moves (run it again)
   */
  record Result(String archiveFile, List<String> instants, int stateFiles, boolean backlog) {}

  @Override
  void run(Table table, Output out) {
    ArchiveOptions archive = ServiceOptions.read(commandLine(), options, KEYS, ArchiveOptions::fromMap,
        ArchiveOptions.MIN_COMMITS, minCommits, ArchiveOptions.MAX_COMMITS, maxCommits);
    ArchiveResult done = Archiver.of(table).options(archive).execute();
    Result result = new Result(done.archiveFile().orElse(null),
        done.completedInstants().stream().map(Instant::time).toList(), done.archived().size(), done.backlog());
    if (out.isJson()) {
      out.json(result);
    } else if (result.archiveFile() == null) {
      out.line("Nothing to archive (" + ArchiveOptions.MIN_COMMITS + "=" + archive.minCommitsToKeep() + ", "
          + ArchiveOptions.MAX_COMMITS + "=" + archive.maxCommitsToKeep() + ").");
    } else {
      List<String> times = result.instants();
      String range = times.isEmpty() ? "" : " (" + times.get(0) + " to " + times.get(times.size() - 1) + ")";
      out.line("Archived " + times.size() + " instants" + range + ", " + result.stateFiles() + " timeline files, into "
          + table.archivePath() + "/" + result.archiveFile() + ".");
      if (result.backlog()) {
        out.line("More instants are due than one run moves (" + ArchiveOptions.MAX_INSTANTS_PER_RUN + "="
            + archive.maxInstantsPerRun() + "): run archive again.");
      }
    }
  }
}
