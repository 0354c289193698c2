package io.riverbed.hive;

import java.util.List;
import java.util.Optional;

/**
 * What one sync did to one metastore table.
 *
 * @param table {@code database.table}
 * @param created the table was registered by this sync
 * @param columnsChanged its columns were changed (schema evolution)
 * @param propertiesChanged its serde or table properties or formats were changed
 * @param added partitions added (relative paths)
 * @param updated partitions whose location was changed (relative paths)
 * @param dropped values of the partitions dropped
 * @param lastCommitTimeSynced the {@code last_commit_time_sync} it holds now
 */
public record TableSyncResult(String table, boolean created, boolean columnsChanged, boolean propertiesChanged,
    List<String> added, List<String> updated, List<List<String>> dropped, Optional<String> lastCommitTimeSynced) {

  public TableSyncResult {
    added = List.copyOf(added);
    updated = List.copyOf(updated);
    dropped = List.copyOf(dropped);
  }

  /** One line for logs and the command line. */
  public String summary() {
    return table + ": " + (created ? "created" : columnsChanged ? "columns changed" : propertiesChanged ? "properties changed" : "exists")
        + ", partitions +" + added.size() + " ~" + updated.size() + " -" + dropped.size()
        + ", last_commit_time_sync=" + lastCommitTimeSynced.orElse("(none)");
  }
}
