package io.riverbed.hive;

import io.riverbed.format.TableException;
import io.riverbed.format.options.SecretOptions;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommitMetadata;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.write.commit.PostCommitAction;
import java.io.UncheckedIOException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hive Metastore sync as a post-commit action of the core's committer: after each commit, the
 * table is synced ({@link HiveSync}) over a fresh metastore connection. A failed sync is logged
 * (the metastore URIs redacted) and retried after the next commit; it never fails the commit, whose
 * data is already visible (Hudi's behaviour too).
 */
public final class HiveSyncAction implements PostCommitAction {
  private static final Logger LOG = LoggerFactory.getLogger(HiveSyncAction.class);

  private final HiveSyncOptions options;

  private HiveSyncAction(HiveSyncOptions options) {
    this.options = Objects.requireNonNull(options);
  }

  /** An action syncing with {@code options} (their base path must be the committed table's). */
  public static HiveSyncAction of(HiveSyncOptions options) {
    return new HiveSyncAction(options);
  }

  public HiveSyncOptions options() {
    return options;
  }

  @Override
  public void afterCommit(Table table, Instant committed, CommitMetadata metadata) {
    try (MetastoreClient client = MetastoreClient.connect(options.metastoreUris(), table.fs().getConf())) {
      HiveSync.of(table, options).run(client);
    } catch (TableException | UncheckedIOException e) {
      LOG.warn("Hive sync of table {} after {} to {} failed; retried after the next commit", table.basePath(),
          committed, SecretOptions.redactText(options.metastoreUris()), e);
    }
  }

  @Override
  public String toString() {
    return "hive sync to " + SecretOptions.redactText(options.metastoreUris());
  }
}
