package io.riverbed.flink.read;

import io.riverbed.format.TableException;
import io.riverbed.format.consumer.ConsumerRegistry;
import io.riverbed.format.table.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager side of a streaming read: every check interval it plans the commits completed
 * since its position ({@link ChangePlanner}) and gives each split to the reader that owns its file
 * group, so that the changes of a key, which stays in its file group, reach one reader in commit
 * order. With a consumer id it registers, at each completed checkpoint, the oldest instant that
 * checkpoint's unread splits read after, so that cleaning keeps their files.
 */
final class ChangeEnumerator implements SplitEnumerator<FileSliceSplit, ChangeStreamState> {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeEnumerator.class);

  private final SplitEnumeratorContext<FileSliceSplit> context;
  private final TableToRead source;
  private final StreamingRead read;
  private final List<FileSliceSplit> unassigned;
  private final Map<String, String> unfinished;
  private final Set<String> restoredUnconfirmed;
  private final Set<Integer> startedReaders = new HashSet<>();
  private final Set<String> restoredHeld = new HashSet<>();
  private final TreeMap<Long, String> neededAtCheckpoint = new TreeMap<>();
  private volatile String position;
  private Table table; // opened and used on the planning thread only
  private String registered;

  ChangeEnumerator(SplitEnumeratorContext<FileSliceSplit> context, TableToRead source, StreamingRead read,
      ChangeStreamState state) {
    this.context = context;
    this.source = source;
    this.read = read;
    this.position = state.position();
    this.unassigned = new ArrayList<>(state.unassigned());
    this.unfinished = new LinkedHashMap<>(state.unfinished());
    this.restoredUnconfirmed = new HashSet<>(state.unfinished().keySet());
    state.unassigned().forEach(s -> restoredUnconfirmed.remove(s.splitId()));
  }

  @Override
  public void start() {
    context.callAsync(this::planNext, this::planned, 0, read.checkInterval().toMillis());
  }

  private ChangePlanner.Step planNext() {
    if (table == null) {
      table = source.open();
    }
    return ChangePlanner.next(table, read, position);
  }

  private void planned(ChangePlanner.Step step, Throwable error) {
    if (error != null) {
      throw new TableException("streaming read of the hudi table at '" + source.path() + "' cannot plan the commits after "
          + (position == null ? "its start" : position), error);
    }
    if (!Objects.equals(step.from(), position)) {
      return; // planned from a position an earlier step has moved on from
    }
    for (FileSliceSplit split : step.splits()) {
      unassigned.add(split);
      unfinished.put(split.splitId(), step.needsAfter());
    }
    if (!step.splits().isEmpty()) {
      LOG.info("Table {}: streaming read planned {} splits of commits ({}, {}]", source.path(), step.splits().size(),
          step.from(), step.to());
    }
    position = step.to();
    assignUnassigned();
  }

  private int owner(FileSliceSplit split) {
    return Math.floorMod(split.split().slice().fileGroupId().hashCode(), context.currentParallelism());
  }

  private void assignUnassigned() {
    Set<Integer> readers = context.registeredReaders().keySet();
    Map<Integer, List<FileSliceSplit>> assignment = new HashMap<>();
    for (Iterator<FileSliceSplit> it = unassigned.iterator(); it.hasNext(); ) {
      FileSliceSplit split = it.next();
      int owner = owner(split);
      if (readers.contains(owner)) {
        assignment.computeIfAbsent(owner, k -> new ArrayList<>()).add(split);
        it.remove();
      }
    }
    if (!assignment.isEmpty()) {
      context.assignSplits(new SplitsAssignment<>(assignment));
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {}

  @Override
  public void addSplitsBack(List<FileSliceSplit> splits, int subtaskId) {
    unassigned.addAll(0, splits); // given out before any split still unassigned
  }

  @Override
  public void addReader(int subtaskId) {
    assignUnassigned();
  }

  @Override
  public void handleSourceEvent(int subtaskId, SourceEvent event) {
    if (!(event instanceof ReaderProgress progress)) {
      return;
    }
    progress.finished().forEach(unfinished::remove);
    if (progress.restored() != null && !restoredUnconfirmed.isEmpty()) {
      startedReaders.add(subtaskId);
      restoredHeld.addAll(progress.restored());
      if (startedReaders.size() >= context.currentParallelism()) {
        restoredUnconfirmed.removeAll(restoredHeld);
        restoredUnconfirmed.forEach(unfinished::remove); // finished after the enumerator's checkpoint, before the readers'
        restoredUnconfirmed.clear();
        restoredHeld.clear();
      }
    }
  }

  @Override
  public ChangeStreamState snapshotState(long checkpointId) {
    String needed = unfinished.values().stream().min(String::compareTo).orElse(position);
    if (needed != null) {
      neededAtCheckpoint.put(checkpointId, needed);
    }
    return new ChangeStreamState(position, unassigned, unfinished);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    Map.Entry<Long, String> needed = neededAtCheckpoint.floorEntry(checkpointId);
    neededAtCheckpoint.headMap(checkpointId, true).clear();
    if (read.consumerId().isEmpty() || needed == null || needed.getValue().equals(registered)) {
      return;
    }
    String id = read.consumerId().get();
    String at = needed.getValue();
    context.callAsync(() -> {
      if (table == null) {
        table = source.open();
      }
      ConsumerRegistry.of(table).advance(id, at);
      return at;
    }, (done, error) -> {
      if (error != null) {
        LOG.warn("Table {}: could not record consumer {} at {}; cleaning may not keep what it still reads",
            source.path(), id, at, error);
      } else {
        registered = done;
      }
    });
  }

  @Override
  public void close() {}
}
