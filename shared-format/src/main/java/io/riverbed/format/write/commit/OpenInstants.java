package io.riverbed.format.write.commit;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The write instants a streaming committer opened and has not committed yet: for each, the epoch
 * (the writers' last checkpoint, or any commit identifier) it was opened for and the writer tasks
 * that write into it. Which instant a writer task gets is decided here ({@link #assign}); no engine
 * types, so any engine's coordinator can keep its open instants with it.
 */
public final class OpenInstants {
  private final TreeMap<String, Long> epochs = new TreeMap<>();
  private final Map<String, Set<Integer>> writers = new HashMap<>();

  /**
   * The instant writer {@code subtask} writes its epoch {@code epoch} into.
   *
   * <p>The newest open instant when it was opened for this epoch or a later one: a writer whose
   * barrier came late joins the instant the others already write, which commits after every older
   * one, so the writer's changes stay ordered after what it wrote before. But never an instant the
   * writer already wrote in an earlier epoch ({@code previous}, reported at a checkpoint): its
   * files of that instant are in a result already, and writing the same file groups into the same
   * instant again would give a file group two base files of one instant (COPY_ON_WRITE), one of
   * which a reader ignores. Otherwise a new instant from {@code begin}, opened for {@code epoch}.
   *
   * @param previous the instant the writer wrote in its previous epoch, or null
   */
  public String assign(int subtask, long epoch, String previous, Supplier<String> begin) {
    String instant;
    if (!wouldBegin(epoch, previous)) {
      instant = epochs.lastKey();
    } else {
      instant = begin.get();
      open(instant, epoch);
    }
    writers.computeIfAbsent(instant, i -> new HashSet<>()).add(subtask);
    return instant;
  }

  /**
   * Whether {@link #assign} with {@code epoch} and {@code previous} would begin a new instant
   * rather than give the newest open one.
   */
  public boolean wouldBegin(long epoch, String previous) {
    var newest = epochs.lastEntry();
    return newest == null || newest.getValue() < epoch || (previous != null && newest.getKey().compareTo(previous) <= 0);
  }

  /** An instant opened for {@code epoch} (restored from the coordinator's state, or just begun). */
  public void open(String instant, long epoch) {
    epochs.put(instant, epoch);
  }

  /** The writer subtasks that were given {@code instant}. */
  public Set<Integer> writers(String instant) {
    return writers.getOrDefault(instant, Set.of());
  }

  /** Each open instant with the epoch it was opened for, oldest first. */
  public void forEach(BiConsumer<String, Long> action) {
    epochs.forEach(action);
  }

  /** The newest epoch an open instant was opened for; 0 when none is open. */
  public long newestEpoch() {
    return epochs.values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  public int size() {
    return epochs.size();
  }

  public boolean isEmpty() {
    return epochs.isEmpty();
  }

  /** {@code instant} is committed. */
  public void remove(String instant) {
    epochs.remove(instant);
    writers.remove(instant);
  }

  public void clear() {
    epochs.clear();
    writers.clear();
  }
}
