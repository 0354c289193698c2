package io.riverbed.format.log;

import io.riverbed.format.timeline.CommittedLogWrites;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.CorruptFileException;
import io.riverbed.format.CorruptLogBlockException;
import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.OrderingValues;
import io.riverbed.format.record.PayloadMergeRule;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the log files of one file slice and merges their records per key, exactly as Hudi 0.15's
 * {@code AbstractHoodieLogRecordReader.scanInternalV1} + {@code HoodieMergedLogRecordScanner} do:
 *
 * <ol>
 *   <li>Blocks are visited in file order across the files, which the caller gives in Hudi's log
 *       file order (base instant, version, write token).
 *   <li>The scan stops at the first non-corrupt block whose {@code INSTANT_TIME} is after the
 *       query instant ({@code latestInstantTime}).
 *   <li>Data and delete blocks of instants that are not committed, or outside the optional
 *       {@link InstantRange}, are skipped; the others are pushed on a pending list, and so are
 *       corrupt blocks.
 *   <li>A rollback command block removes from the pending list every corrupt block and every block
 *       whose {@code INSTANT_TIME} equals its {@code TARGET_INSTANT_TIME}.
 *   <li>At the end the pending blocks are applied oldest first: records merge by
 *       {@link PayloadMergeRule#preCombineKeepsOlder}, delete entries by
 *       {@link PayloadMergeRule#deleteKeepsExisting}; corrupt blocks are ignored.
 * </ol>
 *
 * Where Hudi ignores every corrupt block, Riverbed tells lost committed data from a torn write:
 * a corrupt block overlapping bytes that a completed instant committed ({@link Builder#committedWrites}),
 * or a file shorter than its committed bytes, fails the scan with a
 * {@link CorruptLogBlockException} if that instant counts for this scan (committed, not after
 * the query instant, in the instant range). Corrupt bytes no such instant committed — the torn
 * tail of a write that crashed before its commit — are skipped as Hudi skips them.
 *
 * Only pending blocks' contents are decoded. Memory for merged entries is bounded by
 * {@link Builder#memoryBudgetBytes}; beyond it entries spill to a file in
 * {@link Builder#spillDirectory}, deleted when the result is closed.
 */
public final class SliceLogScanner {

  private static final Logger LOG = LoggerFactory.getLogger(SliceLogScanner.class);

  /** Hudi's default {@code hoodie.memory.merge.max.size}: 1 GB. */
  public static final long DEFAULT_MEMORY_BUDGET = 1L << 30;

  private record LogFile(Path path, long length) {}

  private final FileSystem fs;
  private final List<LogFile> logFiles;
  private final Schema readerSchema;
  private final String latestInstantTime;
  private final Predicate<String> committed;
  private final InstantRange instantRange;
  private final String orderingField;
  private final String recordKeyField;
  private final PayloadMergeRule mergeRule;
  private final long memoryBudgetBytes;
  private final java.nio.file.Path spillDirectory;
  private final CommittedLogWrites committedWrites;
  private final String tableName;
  private final String fileGroup;

  private SliceLogScanner(Builder b) {
    this.fs = b.fs;
    this.logFiles = List.copyOf(b.logFiles);
    this.readerSchema = Objects.requireNonNull(b.readerSchema, "readerSchema");
    this.latestInstantTime = Objects.requireNonNull(b.latestInstantTime, "latestInstantTime");
    this.committed = Objects.requireNonNull(b.committed, "committed");
    this.instantRange = b.instantRange;
    this.orderingField = b.orderingField;
    this.recordKeyField = b.recordKeyField;
    this.mergeRule = b.mergeRule;
    this.memoryBudgetBytes = b.memoryBudgetBytes;
    this.spillDirectory = b.spillDirectory != null
        ? b.spillDirectory : java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
    this.committedWrites = b.committedWrites;
    this.tableName = b.tableName;
    this.fileGroup = b.fileGroup;
  }

  public static Builder builder(FileSystem fs) {
    return new Builder(fs);
  }

  /** Runs the scan. The caller closes the result. */
  public MergedLogRecords scan() {
    long blocks = 0;
    long corruptBlocks = 0;
    long rollbackBlocks = 0;
    LinkedList<LogBlock> pending = new LinkedList<>();
    int filesOpened = 0;
    scan:
    for (LogFile file : logFiles) {
      filesOpened++;
      try (LogFileReader reader = file.length < 0
          ? LogFileReader.open(fs, file.path) : LogFileReader.open(fs, file.path, file.length)) {
        List<CommittedLogWrites.Write> writes = committedWrites.of(file.path);
        while (reader.hasNext()) {
          LogBlock block = reader.next();
          blocks++;
          if (block instanceof CorruptBlock corrupt) {
            requireNotCommitted(corrupt, writes);
            corruptBlocks++;
            LOG.debug("Corrupt block {}", block.describe());
            pending.add(block);
            continue;
          }
          String instant = block.instantTime();
          if (instant == null) {
            throw new CorruptFileException("Log block without INSTANT_TIME header: " + block.describe());
          }
          if (instant.compareTo(latestInstantTime) > 0) {
            LOG.debug("Stopping log scan at {} of instant {} > {}", block.describe(), instant, latestInstantTime);
            break scan;
          }
          if (block instanceof CommandBlock command) {
            applyCommand(command, pending);
            rollbackBlocks++;
          } else if (!committed.test(instant)) {
            LOG.debug("Skipping {} of uncommitted instant {}", block.describe(), instant);
          } else if (instantRange != null && !instantRange.contains(instant)) {
            LOG.debug("Skipping {} of instant {} outside {}", block.describe(), instant, instantRange);
          } else {
            pending.add(block);
          }
        }
        requireCommittedLength(file.path, reader.length(), writes);
      }
    }
    var entries = new SpillableEntryMap(memoryBudgetBytes, spillDirectory, readerSchema, orderingField);
    try {
      long[] merged = applyPending(pending, entries);
      var stats = new ScanStats(filesOpened, blocks, corruptBlocks, rollbackBlocks, merged[0], merged[1],
          entries.spilledEntries());
      LOG.debug("Scanned {} log files: {}", filesOpened, stats);
      return new MergedLogRecords(entries, stats);
    } catch (RuntimeException e) {
      try {
        entries.close();
      } catch (RuntimeException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  /** Fails if committed writes that count for this scan end past the file's length. */
  private void requireCommittedLength(Path path, long length, List<CommittedLogWrites.Write> writes) {
    long committedEnd = length;
    List<String> lost = new ArrayList<>();
    for (CommittedLogWrites.Write w : writes) {
      if (w.end() > length && counts(w.instant())) {
        lost.add(w.instant());
        committedEnd = Math.max(committedEnd, w.end());
      }
    }
    if (!lost.isEmpty()) {
      throw new CorruptLogBlockException(tableName, fileGroup, path.toString(), length, lost,
          "is " + length + " bytes long but was committed up to byte " + committedEnd + ": its end is missing");
    }
  }

  /** Fails if the corrupt span overlaps bytes committed by an instant that counts for this scan. */
  private void requireNotCommitted(CorruptBlock corrupt, List<CommittedLogWrites.Write> writes) {
    BlockLocation span = corrupt.span();
    List<String> lost = writes.stream()
        .filter(w -> w.overlaps(span.offset(), span.offset() + span.length()) && counts(w.instant()))
        .map(CommittedLogWrites.Write::instant)
        .distinct()
        .toList();
    if (!lost.isEmpty()) {
      throw new CorruptLogBlockException(tableName, fileGroup, span.file().toString(), span.offset(), lost,
          "has a corrupt block (" + span.length() + " bytes)");
    }
  }

  /** Whether blocks of {@code instant} would be merged by this scan. */
  private boolean counts(String instant) {
    return committed.test(instant) && instant.compareTo(latestInstantTime) <= 0
        && (instantRange == null || instantRange.contains(instant));
  }

  private static void applyCommand(CommandBlock command, List<LogBlock> pending) {
    if (!command.isRollback()) {
      throw new CorruptFileException("Unknown command block type '"
          + command.header().get(HeaderKey.COMMAND_BLOCK_TYPE) + "': " + command.describe());
    }
    String target = command.targetInstantTime();
    pending.removeIf(b -> b instanceof CorruptBlock || Objects.equals(target, b.instantTime()));
  }

  /** Applies pending blocks oldest first; returns {records, deletes}. */
  private long[] applyPending(List<LogBlock> pending, SpillableEntryMap entries) {
    long[] counts = new long[2];
    for (LogBlock block : pending) {
      if (block instanceof AvroDataBlock data) {
        data.forEachRecord(readerSchema, record -> {
          mergeRecord(record, entries, data);
          counts[0]++;
        });
      } else if (block instanceof DeleteBlock delete) {
        for (DeleteRecord entry : delete.deleteRecords()) {
          applyDelete(entry, entries, delete);
          counts[1]++;
        }
      } else if (block instanceof UndecodedBlock) {
        throw new TableException("Cannot merge " + block.describe() + " of instant " + block.instantTime()
            + ": this block type is not supported by Riverbed");
      }
    }
    return counts;
  }

  private void mergeRecord(GenericRecord record, SpillableEntryMap entries, LogBlock block) {
    Schema.Field keyField = record.getSchema().getField(recordKeyField);
    Object keyValue = keyField == null ? null : record.get(keyField.pos());
    if (keyValue == null) {
      throw new InvalidRecordException("Record without key field '" + recordKeyField + "' in " + block.describe());
    }
    String key = keyValue.toString();
    Comparable<?> ordering = OrderingValues.ofLogRecord(record, orderingField, key);
    LogEntry existing = entries.get(key);
    if (existing == null
        || !mergeRule.preCombineKeepsOlder(existing.orderingValue(), existing instanceof LogEntry.Delete, ordering)) {
      entries.put(new LogEntry.Upsert(key, record, ordering));
    }
  }

  private void applyDelete(DeleteRecord delete, SpillableEntryMap entries, LogBlock block) {
    String key = delete.recordKey();
    if (key == null) {
      throw new CorruptFileException("Delete entry without record key in " + block.describe());
    }
    LogEntry existing = entries.get(key);
    if (existing == null || !mergeRule.deleteKeepsExisting(existing.orderingValue(), delete.orderingValue())) {
      entries.put(new LogEntry.Delete(key, delete.partitionPath(), delete.orderingValue()));
    }
  }

  /** Configures a {@link SliceLogScanner}. */
  public static final class Builder {
    private final FileSystem fs;
    private final List<LogFile> logFiles = new ArrayList<>();
    private Schema readerSchema;
    private String latestInstantTime;
    private Predicate<String> committed;
    private InstantRange instantRange;
    private String orderingField;
    private String recordKeyField = MetaFields.RECORD_KEY;
    private PayloadMergeRule mergeRule = PayloadMergeRule.OVERWRITE_WITH_LATEST;
    private long memoryBudgetBytes = DEFAULT_MEMORY_BUDGET;
    private java.nio.file.Path spillDirectory;
    private CommittedLogWrites committedWrites = CommittedLogWrites.none();
    private String tableName = "?";
    private String fileGroup = "?";

    private Builder(FileSystem fs) {
      this.fs = Objects.requireNonNull(fs, "fs");
    }

    /** The slice's log files, in Hudi's log file order. */
    public Builder logFiles(List<Path> paths) {
      paths.forEach(p -> logFiles.add(new LogFile(p, -1)));
      return this;
    }

    /** Adds one log file, to be read up to {@code length} bytes (e.g. the listed length). */
    public Builder logFile(Path path, long length) {
      logFiles.add(new LogFile(path, length));
      return this;
    }

    /** Schema records are decoded into (Avro schema resolution from each block's writer schema). */
    public Builder readerSchema(Schema schema) {
      this.readerSchema = schema;
      return this;
    }

    /** The query instant: the scan stops at the first block written after it. */
    public Builder latestInstantTime(String instant) {
      this.latestInstantTime = instant;
      return this;
    }

    /**
     * Whether an instant's blocks count: completed (or before the start of the active timeline)
     * and not inflight.
     */
    public Builder committed(Predicate<String> isCommitted) {
      this.committed = isCommitted;
      return this;
    }

    /** Incremental scans: only blocks of instants in this range. */
    public Builder instantRange(InstantRange range) {
      this.instantRange = range;
      return this;
    }

    /** The table's ordering (precombine) field; {@code null} = none (every value is {@code 0}). */
    public Builder orderingField(String field) {
      this.orderingField = field;
      return this;
    }

    /** Field holding the record key; default {@code _hoodie_record_key}. */
    public Builder recordKeyField(String field) {
      this.recordKeyField = Objects.requireNonNull(field);
      return this;
    }

    /** The table's payload rule; default {@link PayloadMergeRule#OVERWRITE_WITH_LATEST}. */
    public Builder mergeRule(PayloadMergeRule rule) {
      this.mergeRule = Objects.requireNonNull(rule);
      return this;
    }

    /** Estimated bytes of merged entries kept in memory; default 1 GB. */
    public Builder memoryBudgetBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("memory budget must be >= 0: " + bytes);
      }
      this.memoryBudgetBytes = bytes;
      return this;
    }

    /** Local directory for the spill file; default {@code java.io.tmpdir}. */
    public Builder spillDirectory(java.nio.file.Path directory) {
      this.spillDirectory = directory;
      return this;
    }

    /**
     * The bytes completed instants committed into the log files: corrupt or missing bytes among
     * them fail the scan. Default {@link CommittedLogWrites#none()}: every corrupt block is skipped.
     */
    public Builder committedWrites(CommittedLogWrites writes) {
      this.committedWrites = Objects.requireNonNull(writes);
      return this;
    }

    /** Names the table and file group in errors. */
    public Builder fileGroup(String table, String fileGroupId) {
      this.tableName = Objects.requireNonNull(table);
      this.fileGroup = Objects.requireNonNull(fileGroupId);
      return this;
    }

    public SliceLogScanner build() {
      return new SliceLogScanner(this);
    }
  }
}
