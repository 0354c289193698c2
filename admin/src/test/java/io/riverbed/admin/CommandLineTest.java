package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.TableType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every subcommand shares: opening the table, Hadoop settings, failures and help. */
class CommandLineTest {
  @TempDir Path dir;

  @Test
  void aPathWithoutATableIsOneLineNamingIt() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));

    AdminRun run = AdminRun.run("commits", empty.toString());

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList()).containsExactly("riverbed-admin commits: file:" + empty
        + " is not a Hudi table: no .hoodie/hoodie.properties");
  }

  @Test
  void verbosePrintsTheStackTraceToo() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));

    AdminRun run = AdminRun.run("show-config", empty.toString(), "--verbose");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().lines().toList().get(0)).startsWith("riverbed-admin show-config: file:" + empty);
    assertThat(run.err()).contains("io.riverbed.format.InvalidTableException", "\tat io.riverbed.");
  }

  @Test
  void anUnknownSchemeNamesThePath() {
    AdminRun run = AdminRun.run("commits", "nosuchfs://bucket/table");

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().lines().toList()).singleElement().asString()
        .startsWith("riverbed-admin commits: cannot reach the file system of nosuchfs://bucket/table: ")
        .contains("nosuchfs");
  }

  @Test
  void confEntriesMustBeKeyValueAndHadoopSettings() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);

    AdminRun malformed = AdminRun.run("commits", t.path(), "--conf", "fs.s3a.secret.key");
    AdminRun tableOption = AdminRun.run("compact", t.path(), "--conf", "hoodie.compaction.logfile.num.threshold=2");
    AdminRun applied = AdminRun.run("commits", t.path(), "--conf", "fs.file.impl.disable.cache=true");

    assertThat(malformed.status()).isEqualTo(2);
    assertThat(malformed.err().strip()).isEqualTo("riverbed-admin commits: --conf '******' is not KEY=VALUE "
        + "(riverbed-admin commits --help lists the options)");
    assertThat(tableOption.status()).isEqualTo(2);
    assertThat(tableOption.err()).startsWith("riverbed-admin compact: --conf takes Hadoop settings; "
        + "hoodie.compaction.logfile.num.threshold is a table service option: pass it as --option "
        + "hoodie.compaction.logfile.num.threshold=...");
    assertThat(applied.status()).as(applied.toString()).isZero();
  }

  @Test
  void hadoopConfDirMustBeAFolder() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);

    AdminRun run = AdminRun.run(Map.of("HADOOP_CONF_DIR", dir.resolve("missing").toString()), "commits", t.path());

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("riverbed-admin commits: HADOOP_CONF_DIR=" + dir.resolve("missing")
        + " is not a folder");
  }

  @Test
  void anUnknownFlagOrCommandOrNoneIsAUsageError() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);

    AdminRun flag = AdminRun.run("commits", t.path(), "--limit", "3");
    AdminRun command = AdminRun.run("show-commits", t.path());
    AdminRun none = AdminRun.run();
    AdminRun noPath = AdminRun.run("commits");

    assertThat(flag.status()).isEqualTo(2);
    assertThat(flag.err().lines().toList()).hasSize(1);
    assertThat(flag.err()).startsWith("riverbed-admin commits: Unknown options: '--limit', '3'");
    assertThat(command.status()).isEqualTo(2);
    assertThat(command.err()).startsWith("riverbed-admin: Unmatched arguments from index 0: 'show-commits'");
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err().strip()).isEqualTo("riverbed-admin: name a command: commits, file-slices, compactions, "
        + "compact, clean, archive, rollback, savepoints, savepoint, consumers, consumer, show-config, upgrade, "
        + "downgrade (riverbed-admin --help lists the options)");
    assertThat(noPath.status()).isEqualTo(2);
    assertThat(noPath.err()).startsWith("riverbed-admin commits: Missing required parameter: 'PATH'");
  }

  @Test
  void helpListsTheCommandsAndEachCommandsOptions() {
    AdminRun top = AdminRun.run("--help");
    AdminRun compact = AdminRun.run("compact", "--help");

    assertThat(top.status()).isZero();
    assertThat(top.out()).contains("Usage: riverbed-admin", "commits", "file-slices", "compactions", "compact", "clean",
        "archive", "rollback", "show-config", "upgrade", "downgrade");
    assertThat(compact.status()).isZero();
    assertThat(compact.out()).contains("Usage: riverbed-admin compact", "--schedule-only", "--instant=T", "--option",
        "--conf", "--json", "--verbose", "PATH");
    assertThat(AdminRun.run("--version").out().strip()).startsWith("riverbed-admin ");
  }
}
