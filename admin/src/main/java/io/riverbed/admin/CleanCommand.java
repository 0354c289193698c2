package io.riverbed.admin;

import io.riverbed.format.clean.CleanOptions;
import io.riverbed.format.clean.CleanResult;
import io.riverbed.format.clean.Cleaner;
import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.table.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clean}: Hudi's clean action, run offline. */
@Command(name = "clean",
    description = {"Cleans the table as Hudi's clean action does: finishes any pending clean from its plan, then plans "
        + "and runs a new one if the policy finds file slices no query inside the retention window reads. The latest "
        + "slice of each file group, the slices of pending compactions, savepointed files and what a live registered "
        + "consumer reads next ('consumers') are never deleted."})
final class CleanCommand extends TableCommand {
  private static final Set<String> KEYS = Set.of(CleanOptions.POLICY, CleanOptions.COMMITS_RETAINED,
      CleanOptions.HOURS_RETAINED, CleanOptions.FILE_VERSIONS_RETAINED, CleanOptions.INCREMENTAL_MODE,
      CleanOptions.MAX_COMMITS, ConsumerOptions.EXPIRATION);

  @Option(names = "--policy", paramLabel = "POLICY", description = "hoodie.cleaner.policy: KEEP_LATEST_COMMITS "
      + "(default), KEEP_LATEST_BY_HOURS or KEEP_LATEST_FILE_VERSIONS.")
  String policy;

  @Option(names = "--retain-commits", paramLabel = "N", description = "hoodie.cleaner.commits.retained (default "
      + "10): completed commits whose files stay readable.")
  Integer retainCommits;

  @Option(names = "--option", paramLabel = "KEY=VALUE", description = "A clean option under its Hudi name "
      + "(repeatable): the Cleaning options of docs/OPTIONS.md (the writer keys; the Flink names are not read) and "
      + "riverbed.consumer.expiration. "
      + "The flags above win over the same key here.")
  List<String> options = new ArrayList<>();

  /** One completed clean. */
  record Clean(String instant, int filesDeleted, int partitions, String earliestInstantRetained) {}

  /** What the command did: the cleans it completed (a resumed one first), under which policy. */
  record Result(String policy, List<Clean> cleans) {}

  @Override
  void run(Table table, Output out) {
    CleanOptions clean = ServiceOptions.read(commandLine(), options, KEYS, CleanOptions::fromMap,
        CleanOptions.POLICY, policy, CleanOptions.COMMITS_RETAINED, retainCommits);
    List<Clean> cleans = Cleaner.of(table).options(clean).execute().stream().map(CleanCommand::clean).toList();
    Result result = new Result(clean.policy().name(), cleans);
    if (out.isJson()) {
      out.json(result);
    } else if (cleans.isEmpty()) {
      out.line("Nothing to clean under " + retention(clean) + ".");
    } else {
      out.table(TextTable.of(cleans).column("CLEAN", Clean::instant).column("FILES_DELETED", Clean::filesDeleted)
          .column("PARTITIONS", Clean::partitions)
          .column("EARLIEST_RETAINED", c -> c.earliestInstantRetained().isEmpty() ? null : c.earliestInstantRetained()));
    }
  }

  private static Clean clean(CleanResult r) {
    return new Clean(r.instantTime(), r.filesDeleted(), r.deletedFilesByPartition().size(), r.earliestInstantRetained());
  }

  private static String retention(CleanOptions o) {
    return switch (o.policy()) {
      case KEEP_LATEST_COMMITS -> "KEEP_LATEST_COMMITS (" + CleanOptions.COMMITS_RETAINED + "=" + o.commitsRetained() + ")";
      case KEEP_LATEST_BY_HOURS -> "KEEP_LATEST_BY_HOURS (" + CleanOptions.HOURS_RETAINED + "=" + o.hoursRetained() + ")";
      case KEEP_LATEST_FILE_VERSIONS -> "KEEP_LATEST_FILE_VERSIONS (" + CleanOptions.FILE_VERSIONS_RETAINED + "="
          + o.fileVersionsRetained() + ")";
    };
  }
}
