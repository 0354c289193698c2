package io.riverbed.format.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.TableException;
import io.riverbed.format.testing.Mutations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Assertions;

/**
 * Damaged timeline files: commit metadata JSON, compaction plans, rollback plans and rollback
 * metadata (Avro containers) parse, or fail with the project's exceptions; never with a raw
 * Jackson, Avro or JDK exception, never by allocating what a forged length claims, never hanging.
 */
class TimelineFilesFuzzTest {

  static final byte[] COMMIT = CommitMetadata.builder(WriteOperationType.UPSERT)
      .schema("{\"type\":\"record\",\"name\":\"r\",\"fields\":[]}")
      .addWriteStat(WriteStat.builder().fileId("fg-1").path("dt=1/.fg-1_20240101000000000.log.1_0-1-1")
          .prevCommit("20240101000000000").numWrites(3).partitionPath("dt=1").fileSizeInBytes(4096)
          .delta(1, 0, "", List.of(".fg-1_20240101000000000.log.1_0-1-1")).build())
      .addWriteStat(WriteStat.builder().fileId("fg-2").path("dt=2/fg-2_0-1-1_20240101000000005.parquet")
          .prevCommit(WriteStat.NULL_COMMIT).numWrites(7).partitionPath("dt=2").fileSizeInBytes(400_000).build())
      .extraMetadata("checkpoint", "42")
      .build().toJsonBytes();

  static final byte[] REPLACE = CommitMetadata.builder(WriteOperationType.INSERT_OVERWRITE).replace()
      .addReplacedFileId("dt=1", "fg-1").build().toJsonBytes();

  static final byte[] COMPACTION_PLAN = CompactionPlan.of(List.of(
      CompactionOperation.of("dt=1", "fg-1", "20240101000000000", "fg-1_0-1-1_20240101000000000.parquet",
          List.of(".fg-1_20240101000000000.log.1_0-1-1", ".fg-1_20240101000000000.log.2_0-1-1")),
      CompactionOperation.of("dt=2", "fg-2", "20240101000000003", null,
          List.of(".fg-2_20240101000000003.log.1_0-1-1")))).toBytes();

  static final byte[] ROLLBACK_PLAN = RollbackPlan.of(new InstantInfo("20240101000000005", "deltacommit"), List.of(
      new RollbackRequest("dt=1", "fg-1", "20240101000000000",
          List.of("file:/t/dt=1/fg-1_0-1-1_20240101000000005.parquet"), null),
      new RollbackRequest("dt=2", "fg-2", "20240101000000000", List.of(),
          Map.of("file:/t/dt=2/.fg-2_20240101000000000.log.1_0-1-1", 4096L)))).toBytes();

  static final byte[] ROLLBACK_METADATA = new RollbackMetadata("20240101000000009", 12, 1,
      List.of("20240101000000005"),
      Map.of("dt=1", new RollbackPartitionMetadata("dt=1", List.of("file:/t/dt=1/a.parquet"), List.of(),
          Map.of("file:/t/dt=1/.fg_1.log.2_1-0-1", 120L), Map.of())),
      RollbackMetadata.LATEST_VERSION, List.of(new InstantInfo("20240101000000005", "deltacommit"))).toBytes();

  static final long MAX_ALLOCATION = 32L << 20;

  /** Runs {@code parse} on damaged bytes: it returns, or throws a TableException; bounded time and memory. */
  static void parsesOrFailsCleanly(Runnable parse) {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      try {
        parse.run();
      } catch (TableException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
      assertThat(threads.getCurrentThreadAllocatedBytes() - before).isLessThan(MAX_ALLOCATION);
    });
  }

  /** Everything a reader of commit metadata asks of it. */
  static void useCommitMetadata(byte[] bytes) {
    CommitMetadata m = CommitMetadata.fromJson(bytes, "fuzz.deltacommit");
    m.schema();
    m.writtenPaths();
    m.writtenPathsByPartition();
    m.fileIdsByPartition();
    m.replacedFileIds();
    m.isReplace();
    m.operationType();
    for (WriteStat s : m.writeStats()) {
      s.fileName();
      s.isDelta();
      s.isNewFileGroup();
    }
    m.toJson();
  }

  @Property(tries = 250)
  void commitMetadataJson(@ForAll("damage") List<Mutations.Mutation> damage, @ForAll boolean replace) {
    byte[] bytes = Mutations.apply(replace ? REPLACE : COMMIT, damage);
    parsesOrFailsCleanly(() -> useCommitMetadata(bytes));
  }

  @Property(tries = 150)
  void compactionPlan(@ForAll("damage") List<Mutations.Mutation> damage) {
    byte[] bytes = Mutations.apply(COMPACTION_PLAN, damage);
    parsesOrFailsCleanly(() -> {
      CompactionPlan plan = CompactionPlan.fromBytes(bytes, "fuzz.compaction.requested");
      plan.operations().forEach(op -> {
        op.dataFile();
        op.deltaFilePaths();
      });
    });
  }

  @Property(tries = 100)
  void rollbackPlan(@ForAll("damage") List<Mutations.Mutation> damage) {
    byte[] bytes = Mutations.apply(ROLLBACK_PLAN, damage);
    parsesOrFailsCleanly(() -> RollbackPlan.fromBytes(bytes, "fuzz.rollback.requested"));
  }

  @Property(tries = 100)
  void rollbackMetadata(@ForAll("damage") List<Mutations.Mutation> damage) {
    byte[] bytes = Mutations.apply(ROLLBACK_METADATA, damage);
    parsesOrFailsCleanly(() -> RollbackMetadata.fromBytes(bytes, "fuzz.rollback"));
  }

  @Property(tries = 100)
  void avroContainerWithAForgedLength(@ForAll("offsets") int offset, @ForAll("varints") long value,
      @ForAll boolean plan) {
    byte[] bytes = (plan ? COMPACTION_PLAN : ROLLBACK_METADATA).clone();
    int at = offset % bytes.length;
    long n = (value << 1) ^ (value >> 63);
    while (at < bytes.length) {
      if ((n & ~0x7FL) == 0) {
        bytes[at] = (byte) n;
        break;
      }
      bytes[at++] = (byte) ((n & 0x7F) | 0x80);
      n >>>= 7;
    }
    parsesOrFailsCleanly(() -> {
      if (plan) {
        CompactionPlan.fromBytes(bytes, "fuzz.compaction.requested");
      } else {
        RollbackMetadata.fromBytes(bytes, "fuzz.rollback");
      }
    });
  }

  @Provide
  Arbitrary<List<Mutations.Mutation>> damage() {
    return Mutations.mutations();
  }

  @Provide
  Arbitrary<Integer> offsets() {
    return net.jqwik.api.Arbitraries.integers().between(0, Integer.MAX_VALUE);
  }

  @Provide
  Arbitrary<Long> varints() {
    return net.jqwik.api.Arbitraries.oneOf(
        net.jqwik.api.Arbitraries.of(-1L, 1L << 20, 1L << 30, Integer.MAX_VALUE - 8L, 1L << 40, Long.MAX_VALUE,
            Long.MIN_VALUE),
        net.jqwik.api.Arbitraries.longs());
  }
}
