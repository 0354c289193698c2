package io.riverbed.admin;

import picocli.CommandLine.Command;

/** {@code downgrade --to 6}: a version 8 table made a version 6 table, as Hudi 1.x's downgrade makes it. */
@Command(name = "downgrade",
    description = {"Downgrades the table from version 8 to 6 (Hudi 0.14/0.15), as Hudi 1.x's downgrade does: failed "
        + "writes rolled back; on MERGE_ON_READ, pending compactions run and then one compaction of every file group "
        + "with log files (so no latest slice keeps a log file named by its delta commit); the active timeline moved "
        + "back to .hoodie/ (completed files named <requested>.<action>, modified at their completion time; commit "
        + "metadata as JSON); hoodie.properties given version 6's keys. Stop the table's writers first. "
        + "Hudi 1.x's archived (LSM) history is written as one Hudi 0.x archive file in .hoodie/<archivelog folder>. "
        + "Run again after a failure: it goes on."})
final class DowngradeCommand extends TableVersionCommand {
  @Override
  boolean upward() {
    return false;
  }
}
