package io.riverbed.it.scenario;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The independent in-memory model of a table's content: last writer wins by {@code ts} (ties go
 * to the later write), deletes remove, insert_overwrite replaces the partitions it writes. Each
 * live record remembers the instant that wrote its current version ({@code _hoodie_commit_time}).
 */
public final class ExpectedTable {

  /** A live record and the commit time of the write that produced it. */
  public record Entry(Trip trip, String commitTime) {
  }

  private final TableSpec spec;
  private final Map<String, Entry> byKey = new LinkedHashMap<>();
  private final List<Map.Entry<String, Entry>> written = new java.util.ArrayList<>();

  public ExpectedTable(TableSpec spec) {
    this.spec = spec;
  }

  /** Insert or update: an incoming record replaces the stored one unless its ts is smaller. */
  public void upsert(Collection<Trip> trips, String instant) {
    for (Trip t : precombine(trips)) {
      String key = spec.recordKey(t);
      written.add(Map.entry(key, new Entry(t, instant)));
      Entry current = byKey.get(key);
      if (current == null || t.ts() >= current.trip().ts()) {
        byKey.put(key, new Entry(t, instant));
      }
    }
  }

  public void delete(Collection<Trip> trips) {
    for (Trip t : trips) {
      byKey.remove(spec.recordKey(t));
    }
  }

  /** Replaces every partition that {@code trips} write with exactly {@code trips}. */
  public void insertOverwrite(Collection<Trip> trips, String instant) {
    Set<String> partitions = trips.stream().map(t -> t.partitionPath(false)).collect(Collectors.toSet());
    byKey.values().removeIf(e -> partitions.contains(e.trip().partitionPath(false)));
    for (Trip t : precombine(trips)) {
      written.add(Map.entry(spec.recordKey(t), new Entry(t, instant)));
      byKey.put(spec.recordKey(t), new Entry(t, instant));
    }
  }

  /** Within one batch the largest ts wins; on a tie the later element. */
  private List<Trip> precombine(Collection<Trip> trips) {
    var latest = new LinkedHashMap<String, Trip>();
    for (Trip t : trips) {
      latest.merge(spec.recordKey(t), t, (a, b) -> b.ts() >= a.ts() ? b : a);
    }
    return List.copyOf(latest.values());
  }

  public Map<String, Entry> state() {
    return Map.copyOf(byKey);
  }

  /** Every record version any write offered (after in-batch precombine), winners and losers, in write order. */
  public List<Map.Entry<String, Entry>> writtenVersions() {
    return List.copyOf(written);
  }

  public int size() {
    return byKey.size();
  }
}
