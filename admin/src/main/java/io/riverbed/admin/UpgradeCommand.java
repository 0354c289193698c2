package io.riverbed.admin;

import picocli.CommandLine.Command;

/** {@code upgrade --to 8}: a version 6 table made a version 8 table, as Hudi 1.x's upgrade makes it. */
@Command(name = "upgrade",
    description = {"Upgrades the table from version 6 to 8 (Hudi 1.x), as Hudi 1.x's upgrade does: failed writes "
        + "rolled back; on MERGE_ON_READ, pending compactions run and then one compaction of every file group with "
        + "log files; the active timeline moved to .hoodie/timeline/ (completed instants named "
        + "<requested>_<completion>.<action>, the completion time from the file's modification time; commit "
        + "metadata as Avro); the archived timeline converted into Hudi 1.x's LSM history in .hoodie/timeline/history/ "
        + "(the old archive files deleted after the switch); hoodie.properties given version 8's keys. Stop the "
        + "table's writers first. Run again after a failure: it goes on."})
final class UpgradeCommand extends TableVersionCommand {
  @Override
  boolean upward() {
    return true;
  }
}
