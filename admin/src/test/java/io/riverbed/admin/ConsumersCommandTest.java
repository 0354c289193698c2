package io.riverbed.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.riverbed.format.consumer.Consumer;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.table.TableType;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumersCommandTest {
  @TempDir Path dir;

  private static ConsumerRegistry recordedAgo(OrdersTable t, Duration ago) {
    return ConsumerRegistry.of(t.table, Clock.offset(Clock.systemUTC(), ago.negated()));
  }

  @Test
  void consumersListsEachWithItsPositionWhenItWasRecordedAndWhetherItExpired() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String first = t.upsertRound(1);
    String second = t.upsertRound(2);
    Consumer etl = ConsumerRegistry.of(t.table).register("etl", second);
    Consumer old = recordedAgo(t, Duration.ofDays(8)).register("old-job", first);

    AdminRun run = AdminRun.run("consumers", t.path());

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.lines()).hasSize(3);
    assertThat(run.lines().get(0).split("\\s+")).containsExactly("ID", "POSITION", "LAST_ADVANCED", "EXPIRES_AT",
        "EXPIRED");
    assertThat(run.lines().get(1).split("\\s+")).containsExactly("etl", second, etl.advancedAt().toString(),
        etl.advancedAt().plus(Duration.ofDays(7)).toString(), "no");
    assertThat(run.lines().get(2).split("\\s+")).containsExactly("old-job", first, old.advancedAt().toString(),
        old.advancedAt().plus(Duration.ofDays(7)).toString(), "yes");

    JsonNode json = AdminRun.run("consumers", t.path(), "--json", "--expiration", "30 d").json();
    assertThat(json).hasSize(2);
    assertThat(json.get(1).get("id").asText()).isEqualTo("old-job");
    assertThat(json.get(1).get("position").asText()).isEqualTo(first);
    assertThat(json.get(1).get("lastAdvanced").asText()).isEqualTo(old.advancedAt().toString());
    assertThat(json.get(1).get("expired").asBoolean()).as("within 30 days").isFalse();
  }

  @Test
  void aTableWithoutConsumersListsNoneAndABadExpirationIsAUsageError() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);

    AdminRun none = AdminRun.run("consumers", t.path());
    AdminRun bad = AdminRun.run("consumers", t.path(), "--expiration", "a week");

    assertThat(none.status()).isZero();
    assertThat(none.lines()).hasSize(1);
    assertThat(AdminRun.run("consumers", t.path(), "--json").json().size()).isZero();
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err().strip()).startsWith("riverbed-admin consumers: riverbed.consumer.expiration must be a "
        + "duration such as '7 d', '12 h' or '30 min', got 'a week'");
  }

  @Test
  void consumerRemoveDeletesItsRegistration() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String first = t.upsertRound(1);
    ConsumerRegistry.of(t.table).register("etl", first);
    ConsumerRegistry.of(t.table).register("dead", first);

    AdminRun run = AdminRun.run("consumer", "remove", t.path(), "--id", "dead");
    AdminRun again = AdminRun.run("consumer", "remove", t.path(), "--id", "dead", "--json");
    AdminRun badId = AdminRun.run("consumer", "remove", t.path(), "--id", "../x");

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.lines()).containsExactly("Removed consumer dead.");
    assertThat(ConsumerRegistry.of(t.table).list()).extracting(Consumer::id).containsExactly("etl");
    assertThat(again.status()).isEqualTo(1);
    assertThat(again.err().strip()).isEqualTo("riverbed-admin consumer remove: table " + t.path()
        + " has no consumer dead ('consumers' lists them)");
    assertThat(badId.status()).isEqualTo(2);
    assertThat(badId.err().strip()).startsWith("riverbed-admin consumer remove: --id: '../x' is not a consumer id");
    assertThat(AdminRun.run("consumer", "remove", t.path(), "--id", "etl", "--json").json().get("removed").asText())
        .isEqualTo("etl");
  }

  @Test
  void cleanKeepsWhatALiveConsumerReadsNextAndTakesTheExpirationAsAnOption() {
    OrdersTable t = OrdersTable.create(dir, TableType.COPY_ON_WRITE);
    String first = t.upsertRound(1);
    for (int r = 2; r <= 4; r++) {
      t.upsertRound(r);
    }
    recordedAgo(t, Duration.ofHours(2)).register("etl", first);

    AdminRun held = AdminRun.run("clean", t.path(), "--retain-commits", "1");
    AdminRun expired = AdminRun.run("clean", t.path(), "--retain-commits", "1", "--option",
        "riverbed.consumer.expiration=1 h", "--json");

    assertThat(held.status()).as(held.toString()).isZero();
    assertThat(held.lines()).containsExactly("Nothing to clean under KEEP_LATEST_COMMITS "
        + "(hoodie.cleaner.commits.retained=1).");
    assertThat(expired.status()).as(expired.toString()).isZero();
    assertThat(expired.json().get("cleans").get(0).get("filesDeleted").asInt()).isEqualTo(4);
  }
}
