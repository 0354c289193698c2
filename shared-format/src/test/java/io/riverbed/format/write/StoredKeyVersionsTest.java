package io.riverbed.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileGroupId;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** Event-time ordering across commits for a writer task without index state (bucket index). */
class StoredKeyVersionsTest {
  private static final Schema SCHEMA = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"}]}");
  private static final FileGroupId GROUP = new FileGroupId("p", "00000000-0000-0000-0000-000000000000-0");

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private final Map<String, StoredKeyVersions.Version> committed = new HashMap<>();
  private final StoredKeyVersions versions =
      new StoredKeyVersions(id -> new HashMap<>(committed), StoredKeyVersions.TombstoneStore.NONE,
          Duration.ofMinutes(10), clock::get);

  private static WriteRecord upsert(String key, long ts) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", key);
    r.put("ts", ts);
    return WriteRecord.upsert(key, "p", r, ts);
  }

  @Test
  void anUpdateOlderThanTheStoredRecordIsDroppedAndCounted() {
    committed.put("k", new StoredKeyVersions.Version(5000L, false, 0));
    assertThat(versions.admit(GROUP, List.of(upsert("k", 4000)))).isEmpty();
    assertThat(versions.admit(GROUP, List.of(upsert("k", 5000)))).hasSize(1);
    assertThat(versions.staleCount()).isEqualTo(1);
  }

  @Test
  void aRecordOlderThanACommittedDeleteDoesNotResurrectTheKey() {
    assertThat(versions.admit(GROUP, List.of(upsert("k", 2000)))).hasSize(1);
    assertThat(versions.admit(GROUP, List.of(WriteRecord.delete("k", "p", 7000L)))).hasSize(1);
    assertThat(versions.admit(GROUP, List.of(upsert("k", 2000)))).as("replayed older insert").isEmpty();
    assertThat(versions.admit(GROUP, List.of(upsert("k", 7001)))).as("a newer insert").hasSize(1);
  }

  @Test
  void aDeleteOlderThanTheStoredRecordIsDropped() {
    committed.put("k", new StoredKeyVersions.Version(9000L, false, 0));
    assertThat(versions.admit(GROUP, List.of(WriteRecord.delete("k", "p", 8000L)))).isEmpty();
    assertThat(versions.admit(GROUP, List.of(WriteRecord.delete("k", "p", null)))).as("no ordering value: applies")
        .hasSize(1);
  }

  @Test
  void tombstonesLoadedFromTheTableAndExpireAfterTheirRetention() {
    committed.put("gone", new StoredKeyVersions.Version(7000L, true, clock.get()));
    assertThat(versions.admit(GROUP, List.of(upsert("gone", 6000)))).isEmpty();
    clock.addAndGet(Duration.ofMinutes(11).toMillis());
    assertThat(versions.admit(GROUP, List.of(upsert("gone", 6000)))).as("tombstone expired").hasSize(1);
  }

  @Test
  void tombstonesAStoreKeptOutliveTheFilesThatNoLongerShowTheDelete() {
    Map<String, StoredKeyVersions.Version> kept = new HashMap<>();
    var store = new StoredKeyVersions.TombstoneStore() {
      @Override
      public Map<String, StoredKeyVersions.Version> tombstones(FileGroupId id) {
        return kept;
      }

      @Override
      public void deleted(FileGroupId id, String key, Comparable<?> ordering, long at) {
        kept.put(key, new StoredKeyVersions.Version(ordering, true, at));
      }

      @Override
      public void revived(FileGroupId id, String key) {
        kept.remove(key);
      }
    };
    var first = new StoredKeyVersions(id -> new HashMap<>(), store, Duration.ofMinutes(10), clock::get);
    first.admit(GROUP, List.of(upsert("k", 2000), WriteRecord.delete("k", "p", 7000L), upsert("j", 1),
        WriteRecord.delete("j", "p", 2L), upsert("j", 3)));
    assertThat(kept).containsOnlyKeys("k");
    // a restarted task: the files hold neither key (a copy-on-write merge dropped k's row)
    var restarted = new StoredKeyVersions(id -> new HashMap<>(), store, Duration.ofMinutes(10), clock::get);
    assertThat(restarted.admit(GROUP, List.of(upsert("k", 2000)))).isEmpty();
  }

  @Test
  void withinOneBatchEachChangeIsJudgedAgainstTheOneBefore() {
    var admitted = versions.admit(GROUP, List.of(upsert("k", 3), upsert("k", 1), upsert("k", 4)));
    assertThat(admitted).extracting(WriteRecord::orderingValue).containsExactly(3L, 4L);
  }
}
