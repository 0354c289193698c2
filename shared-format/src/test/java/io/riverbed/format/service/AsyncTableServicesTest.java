package io.riverbed.format.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.testing.Await;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threading contract of {@link AsyncTableServices}: rounds run off the committing thread, one at a
 * time, commits during a clean cause one more after it, failures stay on the clean thread, close
 * interrupts. Each test forces its interleaving with latches; nothing depends on timing.
 */
class AsyncTableServicesTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Instant COMMIT = Instant.completed("20240101000000000", Action.DELTA_COMMIT);

  @TempDir java.nio.file.Path dir;
  private Table table;
  private final ThreadFactory threads = r -> {
    Thread t = new Thread(r, "test-clean");
    t.setDaemon(true);
    return t;
  };

  @BeforeEach
  void createTable() throws Exception {
    table = Table.create(FileSystem.getLocal(new Configuration()), new Path(dir.toUri().toString(), "t"),
        TableConfig.builder("t").recordKeyFields(List.of("id")).build());
  }

  @Test
  void cleanRunsOnItsOwnThreadAndCommitsDuringItCauseOneMoreAfterIt() throws Exception {
    var started = new CountDownLatch(1);
    var release = new CountDownLatch(1);
    var runs = new AtomicInteger();
    var thread = new AtomicReference<String>();
    try (var cleaner = services(t -> {
      thread.set(Thread.currentThread().getName());
      if (runs.incrementAndGet() == 1) {
        started.countDown();
        await(release);
      }
      return Optional.empty();
    }, threads)) {
      cleaner.afterCommit(table, COMMIT, null);
      assertThat(started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(thread.get()).isEqualTo("test-clean");
      cleaner.afterCommit(table, COMMIT, null);
      cleaner.afterCommit(table, COMMIT, null);
      cleaner.afterCommit(table, COMMIT, null);
      assertThat(runs).as("no second clean while the first runs").hasValue(1);
      release.countDown();
      Await.await("the cleans to end", WAIT).until(() -> !cleaner.isRunning());
      assertThat(runs).as("three commits during the first clean caused one more").hasValue(2);

      cleaner.afterCommit(table, COMMIT, null);
      Await.await("a third clean", WAIT).until(() -> runs.get() == 3 && !cleaner.isRunning());
    }
  }

  @Test
  void aFailedCleanStaysOnItsThreadAndTheNextCommitCleansAgain() throws Exception {
    var runs = new AtomicInteger();
    try (var cleaner = services(t -> {
      if (runs.incrementAndGet() == 1) {
        throw new IllegalStateException("injected clean failure");
      }
      return Optional.empty();
    }, threads)) {
      cleaner.afterCommit(table, COMMIT, null);
      Await.await("the failed clean", WAIT).until(() -> runs.get() == 1 && !cleaner.isRunning());
      cleaner.afterCommit(table, COMMIT, null);
      Await.await("the next clean", WAIT).until(() -> runs.get() == 2 && !cleaner.isRunning());
    }
  }

  @Test
  void closeInterruptsTheRunningCleanAndStartsNoMore() throws Exception {
    var started = new CountDownLatch(1);
    var interrupted = new CountDownLatch(1);
    var runs = new AtomicInteger();
    var cleaner = services(t -> {
      runs.incrementAndGet();
      started.countDown();
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
      return Optional.empty();
    }, threads);
    cleaner.afterCommit(table, COMMIT, null);
    assertThat(started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    cleaner.close();
    assertThat(interrupted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    cleaner.afterCommit(table, COMMIT, null);
    assertThat(cleaner.isRunning()).isFalse();
    assertThat(runs).hasValue(1);
  }

  @Test
  void aFailedServiceDoesNotStopTheNextOneOfTheRound() throws Exception {
    var ran = new java.util.concurrent.CopyOnWriteArrayList<String>();
    try (var round = AsyncTableServices.of(List.of(TableService.named("clean", t -> {
      ran.add("clean");
      throw new IllegalStateException("injected clean failure");
    }), TableService.named("archive", t -> {
      ran.add("archive");
      return Optional.of("archived");
    })), threads)) {
      round.afterCommit(table, COMMIT, null);
      Await.await("the round", WAIT).until(() -> ran.size() == 2 && !round.isRunning());
      assertThat(ran).containsExactly("clean", "archive");
      assertThat(round.lastDurationMillis("clean")).as("no successful clean yet").isEmpty();
      assertThat(round.lastDurationMillis("archive")).isPresent();
    }
  }

  private AsyncTableServices services(Function<Table, Optional<String>> body, ThreadFactory threadFactory) {
    return AsyncTableServices.of(List.of(TableService.named("test", body)), threadFactory);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
