package io.riverbed.admin;

import io.riverbed.format.consumer.Consumer;
import io.riverbed.format.consumer.ConsumerOptions;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.table.Table;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code consumers}: the readers registered on the table and whether each still holds cleaning and archival back. */
@Command(name = "consumers",
    description = {"The registered consumers (incremental readers that read with consumer-id), by id: the position "
        + "each has read up to, when that was last recorded, and whether it expired. A live consumer keeps cleaning "
        + "and archival from removing what its next read needs; an expired one holds nothing back."})
final class ConsumersCommand extends TableCommand {
  @Option(names = "--expiration", paramLabel = "DURATION", description = "riverbed.consumer.expiration, as the "
      + "cleaner and archiver are given it (default 7 d): e.g. 7 d, 12 h, 30 min, P7D.")
  String expiration;

  /**
   * One consumer.
   *
   * @param lastAdvanced when its position was last recorded (ISO-8601, UTC)
   * @param expiresAt when it expires unless it records a position again
   */
  record Row(String id, String position, String lastAdvanced, String expiresAt, boolean expired) {}

  @Override
  void run(Table table, Output out) {
    ConsumerOptions options = ServiceOptions.read(commandLine(), List.of(), Set.of(ConsumerOptions.EXPIRATION),
        ConsumerOptions::fromMap, ConsumerOptions.EXPIRATION, expiration);
    java.time.Instant now = java.time.Instant.now();
    List<Row> rows = ConsumerRegistry.of(table).list().stream().map(c -> row(c, options, now)).toList();
    if (out.isJson()) {
      out.json(rows);
      return;
    }
    out.table(TextTable.of(rows).column("ID", Row::id).column("POSITION", Row::position)
        .column("LAST_ADVANCED", Row::lastAdvanced).column("EXPIRES_AT", Row::expiresAt)
        .column("EXPIRED", r -> r.expired() ? "yes" : "no"));
  }

  private static Row row(Consumer c, ConsumerOptions options, java.time.Instant now) {
    return new Row(c.id(), c.position(), c.advancedAt().toString(), c.advancedAt().plus(options.expiration()).toString(),
        c.isExpired(now, options.expiration()));
  }
}
