package io.riverbed.format.query;

import io.riverbed.format.TableException;
import io.riverbed.format.base.BaseFileReader;
import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.base.LookAheadIterator;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.log.MergedLogRecords;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.CommittedLogWrites;
import io.riverbed.format.timeline.InstantRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Reads the records of one {@link Split}: a base-only slice is streamed from its Parquet file; a
 * slice with logs has its logs merged (bounded memory, spilling) and every base record combined
 * with its key's log entry by the table's payload rule, then the keys only the logs hold follow.
 * Incremental splits keep only records whose commit time lies in the range.
 */
public final class SplitReader {
  private final SliceMerge merge;
  private final Table table;
  private final Schema tableSchema;

  private SplitReader(SliceMerge merge) {
    this.merge = merge;
    this.table = merge.table();
    this.tableSchema = merge.tableSchema();
  }

  /** A reader for the splits of {@code plan}; the plan must have a schema (a table with data). */
  public static SplitReader of(QueryPlan plan, ReadSettings settings) {
    return new SplitReader(SliceMerge.of(plan, settings));
  }

  /**
   * A reader for splits of {@code plan} whose log files' committed writes are {@code writes}
   * ({@link #committedWritesFor}): it reads no commit metadata of its own.
   */
  public static SplitReader of(QueryPlan plan, ReadSettings settings, CommittedLogWrites writes) {
    return new SplitReader(SliceMerge.of(plan, settings, Optional.of(writes)));
  }

  /**
   * What {@code plan}'s completed instants committed into the log files of {@code splits}, read
   * once where the query is planned, so that the readers of those splits, wherever they run, do not
   * each read the timeline's commit metadata; only the instants from the splits' oldest log base
   * instant on are read.
   */
  public static CommittedLogWrites committedWritesFor(QueryPlan plan, List<Split> splits) {
    return SliceMerge.committedWritesFor(plan, splits);
  }

  public Schema tableSchema() {
    return tableSchema;
  }

  /**
   * The split's records. With {@code projection} (a subset of the table schema's fields) a
   * base-only split reads just those columns; merged records always carry the full schema.
   */
  public CloseableIterator<GenericRecord> read(Split split, Optional<Schema> projection) {
    return read(split, projection, baseFileSchema -> Optional.empty());
  }

  /**
   * As {@link #read(Split, Optional)}, and a base-only split's Parquet file is read with the
   * filter {@code baseFileFilter} builds for the file's Parquet schema (row groups skipped by
   * statistics, failing records dropped). Slices with logs are never filtered before merging: a
   * log record may change a base record so that it passes. The filter must only drop records
   * the query itself would drop.
   */
  public CloseableIterator<GenericRecord> read(Split split, Optional<Schema> projection,
      Function<MessageType, Optional<FilterPredicate>> baseFileFilter) {
    try {
      return open(split, projection, baseFileFilter);
    } catch (RuntimeException e) {
      throw split.range().isPresent() ? missingFileOr(split, e) : e;
    }
  }

  /**
   * As {@link #read(Split, Optional)}, skipping what {@code filter} rules out by statistics: a
   * base-only split's Parquet row groups whose min/max/null counts show that no row can pass it
   * are not read, nor is its file when no row group is left. The rows of the groups read are all
   * returned, so the caller still evaluates its filter on every row. A slice with logs is read
   * whole: a log record may change or delete a base record, so its base file is never pruned.
   *
   * @param counts where the base files and row groups read and skipped are counted
   */
  public CloseableIterator<GenericRecord> read(Split split, Optional<Schema> projection, ColumnPredicate filter,
      PruningCounts counts) {
    if (!split.slice().logFiles().isEmpty()) {
      return read(split, projection);
    }
    try {
      FileSlice slice = split.slice();
      BaseFile base = slice.baseFile().orElseThrow(() -> new TableException("empty file slice " + slice.fileGroupId()));
      BaseFileReader reader = BaseFileReader.open(table.fs().getConf(), base.path());
      Optional<FilterPredicate> predicate = ParquetColumnPredicates.forFile(filter, reader.parquetSchema());
      if (predicate.isEmpty()) {
        counts.baseFile(reader.rowGroupCount(), reader.rowGroupCount());
        return read(split, projection);
      }
      int matching = reader.rowGroupsMatching(predicate.get());
      counts.baseFile(reader.rowGroupCount(), matching);
      if (matching == 0) {
        return emptyIterator();
      }
      Predicate<GenericRecord> inRange = split.range().map(SplitReader::commitTimeIn).orElse(r -> true);
      return filtered(reader.recordsInMatchingRowGroups(readSchema(split, projection), FilterCompat.get(predicate.get())),
          inRange);
    } catch (RuntimeException e) {
      throw split.range().isPresent() ? missingFileOr(split, e) : e;
    }
  }

  /**
   * An incremental split that cannot be opened because a file its commits wrote is gone (the
   * cleaner deleted it) fails naming the file and the way out, as Hudi fails such a read without
   * its fallback; any other failure stays as it was.
   */
  private RuntimeException missingFileOr(Split split, RuntimeException failure) {
    FileSlice slice = split.slice();
    List<Path> files = new ArrayList<>();
    slice.baseFile().ifPresent(b -> files.add(b.path()));
    slice.logFiles().forEach(l -> files.add(l.path()));
    for (Path file : files) {
      boolean gone;
      try {
        gone = !table.fs().exists(file);
      } catch (IOException e) {
        failure.addSuppressed(e);
        return failure;
      }
      if (gone) {
        return new TableException("table " + table.basePath() + ": " + file + ", written by a commit of the incremental "
            + "range " + split.range().orElseThrow() + ", is gone (cleaned); set " + QuerySpec.FALLBACK_FULL_TABLE_SCAN
            + "=true to read the range by a full table scan, or begin it at a commit the cleaner retained", failure);
      }
    }
    return failure;
  }

  private CloseableIterator<GenericRecord> open(Split split, Optional<Schema> projection,
      Function<MessageType, Optional<FilterPredicate>> baseFileFilter) {
    FileSlice slice = split.slice();
    Predicate<GenericRecord> inRange = split.range().map(SplitReader::commitTimeIn).orElse(r -> true);
    if (slice.logFiles().isEmpty()) {
      BaseFile base = slice.baseFile().orElseThrow(() -> new TableException("empty file slice " + slice.fileGroupId()));
      Schema readSchema = readSchema(split, projection);
      BaseFileReader reader = BaseFileReader.open(table.fs().getConf(), base.path());
      FilterCompat.Filter filter = baseFileFilter.apply(reader.parquetSchema()).map(FilterCompat::get).orElse(FilterCompat.NOOP);
      return filtered(reader.records(readSchema, filter), inRange);
    }
    return filtered(mergedSlice(slice, scanLogs(split), split.range()), inRange);
  }

  /** The columns a base-only split reads: the projection, or the whole schema when the commit time it filters by is missing. */
  private Schema readSchema(Split split, Optional<Schema> projection) {
    return projection.filter(p -> split.range().isEmpty() || p.getField(MetaFields.COMMIT_TIME) != null).orElse(tableSchema);
  }

  /**
   * The changes an incremental split's range made, for streaming readers: its log blocks of the
   * range merged per key over the base rows (a key the range deleted comes out as
   * {@link RowChange.Deleted}, also when only a delete block or a record flagged deleted says so),
   * and the base rows whose commit time lies in the range. Keys the range did not touch yield
   * nothing, whatever blocks before the range say of them.
   */
  public CloseableIterator<RowChange> readChanges(Split split, Optional<Schema> projection) {
    InstantRange range = split.range().orElseThrow(() -> new TableException("split of file group "
        + split.slice().fileGroupId() + " in " + table.basePath() + " has no instant range: only incremental splits "
        + "have changes"));
    try {
      return openChanges(split, range, projection);
    } catch (RuntimeException e) {
      throw missingFileOr(split, e);
    }
  }

  private CloseableIterator<RowChange> openChanges(Split split, InstantRange range, Optional<Schema> projection) {
    FileSlice slice = split.slice();
    if (slice.logFiles().isEmpty()) {
      return open(split, projection, schema -> Optional.empty()).map(RowChange.Upserted::new);
    }
    MergedLogRecords logs = merge.scanLogs(split, tableSchema, true);
    CloseableIterator<GenericRecord> base;
    try {
      base = slice.baseFile()
          .map(b -> BaseFileReader.recordsInMatchingRowGroups(table.fs().getConf(), b.path(), tableSchema,
              commitTimeFilter(range)))
          .orElseGet(SplitReader::emptyIterator);
    } catch (RuntimeException e) {
      logs.close();
      throw e;
    }
    BaseRowAccess<GenericRecord> avro = avroRows(merge.orderingField());
    BaseRowAccess<RowChange> access = new BaseRowAccess<>() {
      @Override
      public String recordKey(RowChange row) {
        return avro.recordKey(((RowChange.Upserted) row).record());
      }

      @Override
      public Comparable<?> orderingValue(RowChange row) {
        return avro.orderingValue(((RowChange.Upserted) row).record());
      }
    };
    String partitionPath = slice.partitionPath();
    Predicate<GenericRecord> inRange = commitTimeIn(range);
    var changes = new MergedBaseRows<RowChange>(merge, logs, base.map(RowChange.Upserted::new), access,
        RowChange.Upserted::new, entry -> new RowChange.Deleted(entry.recordKey(), partitionPath));
    return filtered(changes, c -> !(c instanceof RowChange.Upserted u) || inRange.test(u.record()));
  }

  private MergedLogRecords scanLogs(Split split) {
    return merge.scanLogs(split, tableSchema);
  }

  private static Predicate<GenericRecord> commitTimeIn(InstantRange range) {
    return r -> {
      Object t = r.get(MetaFields.COMMIT_TIME);
      return t != null && range.contains(t.toString());
    };
  }

  private static FilterCompat.Filter commitTimeFilter(InstantRange range) {
    Operators.BinaryColumn commitTime = FilterApi.binaryColumn(MetaFields.COMMIT_TIME);
    Binary start = Binary.fromString(range.start());
    FilterPredicate after = range.startInclusive() ? FilterApi.gtEq(commitTime, start) : FilterApi.gt(commitTime, start);
    FilterPredicate predicate = range.endInclusive() == null ? after
        : FilterApi.and(after, FilterApi.ltEq(commitTime, Binary.fromString(range.endInclusive())));
    return FilterCompat.get(predicate);
  }

  private static <T> CloseableIterator<T> filtered(CloseableIterator<T> source, Predicate<? super T> keep) {
    return new LookAheadIterator<>() {
      @Override
      protected T computeNext() {
        while (source.hasNext()) {
          T r = source.next();
          if (keep.test(r)) {
            return r;
          }
        }
        return null;
      }

      @Override
      public void close() {
        source.close();
      }
    };
  }

  /**
   * Base records merged with their log entries, then the log-only records. An incremental read's
   * base row groups and pages whose commit-time statistics lie outside its range are skipped
   * before merging, as Hudi 0.15's reader skips them (so a log record that lost to a base record of
   * such a group is returned as the change). On a table version 8 every base record outside the
   * range is dropped before merging, as Hudi 1.0.2's reader drops it, not only whole row groups.
   */
  private CloseableIterator<GenericRecord> mergedSlice(FileSlice slice, MergedLogRecords logs, Optional<InstantRange> range) {
    FilterCompat.Filter filter = range.map(SplitReader::commitTimeFilter).orElse(FilterCompat.NOOP);
    CloseableIterator<GenericRecord> base;
    try {
      base = slice.baseFile()
          .map(b -> BaseFileReader.recordsInMatchingRowGroups(table.fs().getConf(), b.path(), tableSchema, filter))
          .orElseGet(SplitReader::emptyIterator);
    } catch (RuntimeException e) {
      logs.close();
      throw e;
    }
    if (range.isPresent() && table.config().incrementalRangeByCompletionTime()) {
      base = filtered(base, commitTimeIn(range.get()));
    }
    return new MergedBaseRows<>(merge, logs, base, avroRows(merge.orderingField()), r -> r);
  }

  private static BaseRowAccess<GenericRecord> avroRows(String orderingField) {
    return new BaseRowAccess<>() {
      @Override
      public String recordKey(GenericRecord row) {
        Object key = row.get(MetaFields.RECORD_KEY);
        return key == null ? null : key.toString();
      }

      @Override
      public Comparable<?> orderingValue(GenericRecord row) {
        return OrderingValues.ofRecordForCombine(row, orderingField, recordKey(row));
      }
    };
  }

  /**
   * A snapshot split with logs merged in an engine's own row form: {@code baseRows} are the
   * slice's base file as the engine read it (every row, unfiltered: a log record may change a
   * row so that it passes a filter), {@code fromLog} turns a winning log record into a row.
   * Rows come out in the same order and with the same merge outcomes as {@link #read}.
   *
   * @param baseRows closed with the result; empty for a slice without a base file
   */
  public <R> CloseableIterator<R> mergeRows(Split split, CloseableIterator<R> baseRows, BaseRowAccess<R> access,
      Function<GenericRecord, R> fromLog) {
    if (split.range().isPresent() || split.slice().logFiles().isEmpty()) {
      baseRows.close();
      throw new TableException("split of file group " + split.slice().fileGroupId() + " in " + table.basePath()
          + ": only snapshot splits with logs are merged in an engine's row form");
    }
    MergedLogRecords logs;
    try {
      logs = scanLogs(split);
    } catch (RuntimeException e) {
      baseRows.close();
      throw e;
    }
    return new MergedBaseRows<>(merge, logs, baseRows, access, fromLog);
  }

  /** The table's ordering field, if it has one in the read schema. */
  public Optional<String> orderingField() {
    return Optional.ofNullable(merge.orderingField());
  }

  /** True iff merging a base row with a log record reads the base row's ordering value. */
  public boolean mergeComparesBaseOrdering() {
    return merge.comparesBaseOrdering();
  }

  private static CloseableIterator<GenericRecord> emptyIterator() {
    return new LookAheadIterator<>() {
      @Override
      protected GenericRecord computeNext() {
        return null;
      }

      @Override
      public void close() {}
    };
  }
}
