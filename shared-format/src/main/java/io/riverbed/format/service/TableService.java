package io.riverbed.format.service;

import io.riverbed.format.archive.ArchiveOptions;
import io.riverbed.format.archive.ArchiveResult;
import io.riverbed.format.archive.Archiver;
import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.table.Table;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A table service a streaming writer runs after its commits ({@link AsyncTableServices}): cleaning
 * old file slices, archiving old instants. Each run is one {@link io.riverbed.format.TableOperation}.
 */
public interface TableService {

  /** What the service is called in logs, e.g. {@code clean}. */
  String name();

  /**
   * Runs the service once on {@code table}.
   *
   * @return what it did, for the log; empty when there was nothing to do
   */
  Optional<String> run(Table table);

  /** A service called {@code name} that runs {@code run}. */
  static TableService named(String name, Function<Table, Optional<String>> run) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(run, "run");
    return new TableService() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Optional<String> run(Table table) {
        return run.apply(table);
      }
    };
  }

  /** Hudi's clean action with {@code options} ({@link Cleaner}). */
  static TableService cleaning(CleanOptions options) {
    return cleaning(options, () -> { });
  }

  /** As {@link #cleaning(CleanOptions)}, with {@code afterFileDeleted} run after each file a clean deletes (fault tests). */
  static TableService cleaning(CleanOptions options, Runnable afterFileDeleted) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(afterFileDeleted, "afterFileDeleted");
    return named("clean", table -> {
      List<CleanResult> done = Cleaner.of(table).options(options).afterFileDeleted(afterFileDeleted).execute();
      return done.isEmpty() ? Optional.empty() : Optional.of("cleans " + done.stream().map(CleanResult::instantTime)
          .toList() + ", " + done.stream().mapToInt(CleanResult::filesDeleted).sum() + " files deleted");
    });
  }

  /**
   * Hudi's archival with {@code options} ({@link Archiver}): a bounded batch of instants per run; on
   * a version 8 table into Hudi 1.x's LSM history.
   */
  static TableService archiving(ArchiveOptions options) {
    return archiving(options, () -> { });
  }

  /**
   * As {@link #archiving(ArchiveOptions)}, with {@code afterArchiveFileWritten} run between writing
   * the archive file and deleting the archived instants' files (fault tests).
   */
  static TableService archiving(ArchiveOptions options, Runnable afterArchiveFileWritten) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(afterArchiveFileWritten, "afterArchiveFileWritten");
    return named("archive", table -> {
      ArchiveResult result = Archiver.of(table).options(options).afterArchiveFileWritten(afterArchiveFileWritten)
          .execute();
      return result.archived().isEmpty() ? Optional.empty() : Optional.of(result.archived().size()
          + " instants archived into " + result.archiveFile().orElse("?")
          + (result.backlog() ? "; more are due, the next run goes on" : ""));
    });
  }
}
