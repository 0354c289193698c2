package io.riverbed.flink.read;

import io.riverbed.flink.sink.FaultInjection;
import io.riverbed.format.record.TableSchemas;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.query.ColumnPredicate;
import io.riverbed.format.query.PruningCounts;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.RowChange;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.table.Table;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Reads the file slices assigned to one source subtask, one after the other, with the core's
 * {@link SplitReader} (base and log records merged, incremental ranges applied), and turns the
 * records into rows of the produced row type. Its checkpointed state is the slice being read with
 * the count of rows emitted from it, and the slices not yet opened; a restored reader skips the
 * emitted rows. A batch reader asks the enumerator for the next slice when it has none left. A
 * streaming reader is given its slices in commit order, reads an incremental slice's changes
 * (deleted keys as {@link DeletedKeyRows}), tells the enumerator of each slice it finished and
 * never ends.
 */
final class FileSliceReader implements SourceReader<RowData, FileSliceSplit> {
  private final SourceReaderContext context;
  private final TableToRead source;
  private final RowType rowType;
  private final long limit;
  private final Optional<ColumnPredicate> filter;
  private final PruningCounts pruning = new PruningCounts();
  private final Deque<FileSliceSplit> queued = new ArrayDeque<>();
  private String splitReaderPlan;
  private SplitReader splitReader;
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private Table table;
  private FileSliceSplit current;
  private final boolean streaming;
  private CloseableIterator<RowData> records;
  private DeletedKeyRows deletedRows;
  private final Map<Schema, AvroToRowData> converters = new IdentityHashMap<>();
  private long emittedFromCurrent;
  private long emitted;
  private boolean noMoreSplits;
  private boolean awaitingSplit;

  /**
   * @param limit rows this reader emits at most (a pushed-down LIMIT), or {@code Long.MAX_VALUE}
   * @param streaming whether it reads a stream of changes (given its splits) or a batch (asking for them)
   */
  FileSliceReader(SourceReaderContext context, TableToRead source, RowType rowType, long limit, boolean streaming) {
    this(context, source, rowType, limit, streaming, Optional.empty());
  }

  /**
   * @param filter the pushed-down filter a batch reader skips base files and row groups by (their
   *     statistics showing no row passes); the rows read are not filtered, Flink filters them
   */
  FileSliceReader(SourceReaderContext context, TableToRead source, RowType rowType, long limit, boolean streaming,
      Optional<ColumnPredicate> filter) {
    this.context = context;
    this.source = source;
    this.rowType = rowType;
    this.limit = limit;
    this.streaming = streaming;
    this.filter = streaming ? Optional.empty() : filter;
    if (this.filter.isPresent()) {
      context.metricGroup().gauge("baseFilesSkipped", pruning::baseFilesSkipped);
      context.metricGroup().gauge("rowGroupsSkipped", pruning::rowGroupsSkipped);
      context.metricGroup().gauge("rowGroupsRead", pruning::rowGroupsRead);
    }
  }

  /** The base files and row groups this reader's filter let it skip, and those it read. */
  PruningCounts pruningCounts() {
    return pruning;
  }

  @Override
  public void start() {
    if (streaming) {
      context.sendSourceEventToCoordinator(ReaderProgress.started(queued.stream().map(FileSliceSplit::splitId).toList()));
    } else {
      requestSplit();
    }
  }

  @Override
  public InputStatus pollNext(ReaderOutput<RowData> output) throws Exception {
    while (true) {
      if (emitted >= limit) {
        closeCurrent();
        return InputStatus.END_OF_INPUT;
      }
      if (records != null && records.hasNext()) {
        output.collect(records.next());
        if (emittedFromCurrent++ == 0) {
          FaultInjection.check(FaultInjection.SOURCE_DURING_SPLIT);
        }
        emitted++;
        return InputStatus.MORE_AVAILABLE;
      }
      if (records != null) {
        String finished = current.splitId();
        closeCurrent();
        if (streaming) {
          context.sendSourceEventToCoordinator(ReaderProgress.finished(finished));
        }
      }
      FileSliceSplit next = queued.poll();
      if (next != null) {
        open(next);
        continue;
      }
      if (noMoreSplits) {
        return InputStatus.END_OF_INPUT;
      }
      if (!streaming) {
        requestSplit();
      }
      return InputStatus.NOTHING_AVAILABLE;
    }
  }

  private void open(FileSliceSplit split) {
    if (table == null) {
      table = source.open();
    }
    String plan = split.plan().schemaJson() + split.plan().instants();
    if (!plan.equals(splitReaderPlan)) { // a stream's every step has a plan of its own
      splitReader = SplitReader.of(split.plan().rebuild(table), ReadSettings.fromOptions(source.options()));
      splitReaderPlan = plan;
      converters.clear();
    }
    SplitReader reader = splitReader;
    Schema projection = TableSchemas.projection(reader.tableSchema(), rowType.getFieldNames());
    current = split;
    records = streaming && split.split().range().isPresent()
        ? reader.readChanges(split.split(), Optional.of(projection)).map(this::toRow)
        : filter.isPresent() ? reader.read(split.split(), Optional.of(projection), filter.get(), pruning).map(this::toRow)
        : reader.read(split.split(), Optional.of(projection)).map(this::toRow);
    emittedFromCurrent = 0;
    while (emittedFromCurrent < split.emittedRows() && records.hasNext()) {
      records.next();
      emittedFromCurrent++;
    }
  }

  private RowData toRow(GenericRecord record) {
    return converters.computeIfAbsent(record.getSchema(), s -> AvroToRowData.of(rowType, s)).convert(record);
  }

  private RowData toRow(RowChange change) {
    if (change instanceof RowChange.Upserted upserted) {
      return toRow(upserted.record());
    }
    RowChange.Deleted deleted = (RowChange.Deleted) change;
    if (deletedRows == null) {
      deletedRows = new DeletedKeyRows(rowType, table.config());
    }
    return deletedRows.of(deleted.recordKey(), deleted.partitionPath());
  }

  private void closeCurrent() {
    if (records != null) {
      records.close();
    }
    records = null;
    current = null;
  }

  private void requestSplit() {
    if (!awaitingSplit && !noMoreSplits) {
      awaitingSplit = true;
      context.sendSplitRequest();
    }
  }

  @Override
  public List<FileSliceSplit> snapshotState(long checkpointId) {
    List<FileSliceSplit> state = new ArrayList<>();
    if (current != null) {
      state.add(current.withEmittedRows(emittedFromCurrent));
    }
    state.addAll(queued);
    return state;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    if (records != null || !queued.isEmpty() || noMoreSplits) {
      return CompletableFuture.completedFuture(null);
    }
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return available;
  }

  @Override
  public void addSplits(List<FileSliceSplit> splits) {
    queued.addAll(splits);
    awaitingSplit = false;
    signalAvailable();
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    signalAvailable();
  }

  private void signalAvailable() {
    available.complete(null);
  }

  @Override
  public void close() {
    closeCurrent();
  }
}
