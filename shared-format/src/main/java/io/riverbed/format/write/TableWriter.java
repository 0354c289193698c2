package io.riverbed.format.write;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.WriteStat;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.avro.Schema;

/**
 * The write path of one engine task: takes upserts and deletes already routed to file groups (the
 * engine's index decides where a key lives, {@link FileGroupPacker} places new keys, or
 * {@link BucketIndex} hashes them), buffers them per file group in bounded memory, writes each
 * flushed group with the handle it needs ({@link FileGroupWriter}: log append, base create or
 * merge, rolls) and hands back the instant's write stats in {@link #prepareCommit}. Rows stay in
 * the engine's form, of type {@code R}, until their group is flushed; no engine type is named here.
 *
 * <p>One instant at a time: the writer asks {@code instants} for the instant on the first file it
 * writes after a {@link #prepareCommit} (or after it was built). Not thread-safe; one per task.
 */
public final class TableWriter<R> {
  /** How the engine names a routed row's file group. */
  public enum Routing {
    /** By file id (the engine's index, or {@link FileGroupPacker} for new keys). */
    FILE_ID,
    /** By bucket number ({@link BucketIndex#bucket}); the writer finds or makes the bucket's file id. */
    BUCKET
  }

  /** Turns one buffered engine row of {@code partitionPath} into the change to write. */
  @FunctionalInterface
  public interface RowConverter<R> {
    WriteRecord toWriteRecord(R row, String partitionPath);
  }

  /**
   * What one task wrote since the last {@link #prepareCommit}: the stats of its data files, and
   * how many changes were dropped as older than their key's stored version.
   */
  public record Prepared(List<WriteStat> writeStats, long staleRecords) {
    public Prepared {
      writeStats = List.copyOf(writeStats);
    }
  }

  private final FileGroupWriter files;
  private final FileGroupBuffers<R> buffers;
  private final Supplier<String> instants;
  private final RowConverter<R> converter;
  private String instant;

  private TableWriter(Builder<R> b, Supplier<String> instants, RowConverter<R> converter) {
    this.files = new FileGroupWriter(b.table, b.schema, b.options, b.taskIndex, b.parallelism, b.attempt,
        b.routing == Routing.BUCKET, b.baseFileGroups, b.keyVersions, b.afterFileWritten);
    this.buffers = new FileGroupBuffers<>(b.bufferLimitBytes, this::writeGroup);
    this.instants = instants;
    this.converter = converter;
  }

  /**
   * A builder for a writer of {@code table}.
   *
   * @param schema the table's Avro schema (meta fields, if present, are ignored)
   */
  public static <R> Builder<R> builder(Table table, Schema schema, WriteOptions options) {
    return new Builder<>(table, schema, options);
  }

  /**
   * Buffers {@code row} for file group {@code fileGroup} of {@code partitionPath}; may write
   * buffered groups to stay within the memory bound.
   *
   * @param fileGroup a file id or a bucket number, as the writer's {@link Routing} says
   * @param bytes what the row costs in memory, as the engine measures it
   */
  public void write(String partitionPath, String fileGroup, R row, long bytes) {
    buffers.add(partitionPath, fileGroup, row, bytes);
  }

  /** Writes every buffered group and returns what this task wrote in the instant; the instant is over. */
  public Prepared prepareCommit() {
    buffers.flushAll();
    List<WriteStat> stats = instant == null ? List.of() : files.finishInstant();
    instant = null;
    return new Prepared(stats, files.takeStaleCount());
  }

  /** Bytes buffered now. */
  public long bufferedBytes() {
    return buffers.bufferedBytes();
  }

  /** The most bytes the buffers ever held at once. */
  public long maxBufferedBytes() {
    return buffers.maxBufferedBytes();
  }

  /**
   * Writes the files that follow in {@code schema}, which must read every row buffered so far (as
   * when it adds nullable columns); files written before keep their schema. The engine calls it
   * before buffering a row that needs it, or from its instant supplier.
   */
  public void schema(Schema schema) {
    files.schema(Objects.requireNonNull(schema, "schema"));
  }

  private void writeGroup(String partition, String fileGroup, List<R> rows) {
    // the instant first: asking for it may change the schema the rows are converted to
    if (instant == null) {
      instant = Objects.requireNonNull(instants.get(), "instant");
      files.startInstant(instant);
    }
    List<WriteRecord> records = new ArrayList<>(rows.size());
    for (R row : rows) {
      records.add(converter.toWriteRecord(row, partition));
    }
    rows.clear();
    files.write(instant, partition, fileGroup, records);
  }

  /** Configures a {@link TableWriter}; defaults: task 0 of 1, attempt 0, file id routing, no memory bound. */
  public static final class Builder<R> {
    private final Table table;
    private final Schema schema;
    private final WriteOptions options;
    private int taskIndex;
    private int parallelism = 1;
    private int attempt;
    private Routing routing = Routing.FILE_ID;
    private Predicate<FileGroupId> baseFileGroups = group -> false;
    private StoredKeyVersions keyVersions;
    private long bufferLimitBytes = Long.MAX_VALUE;
    private Runnable afterFileWritten = () -> { };

    private Builder(Table table, Schema schema, WriteOptions options) {
      this.table = Objects.requireNonNull(table, "table");
      this.schema = Objects.requireNonNull(schema, "schema");
      this.options = Objects.requireNonNull(options, "options");
    }

    /** The task's identity, which names its files ({@code taskIndex-parallelism-attempt}). */
    public Builder<R> task(int taskIndex, int parallelism, int attempt) {
      this.taskIndex = taskIndex;
      this.parallelism = parallelism;
      this.attempt = attempt;
      return this;
    }

    public Builder<R> routing(Routing routing) {
      this.routing = Objects.requireNonNull(routing, "routing");
      return this;
    }

    /** Writes base files whatever the table type, as a bulk insert does (MERGE_ON_READ included). */
    public Builder<R> baseFiles() {
      return baseFilesFor(group -> true);
    }

    /**
     * Writes the MERGE_ON_READ groups {@code groups} accepts into base files, as COPY_ON_WRITE does,
     * the others into logs. A group is tested on its first write of an instant, and only if its
     * latest slice has no logs (a group with logs stays in logs).
     */
    public Builder<R> baseFilesFor(Predicate<FileGroupId> groups) {
      this.baseFileGroups = Objects.requireNonNull(groups, "groups");
      return this;
    }

    /** Drops changes older than their key's stored write or delete (bucket index, event-time ordering). */
    public Builder<R> keyVersions(StoredKeyVersions keyVersions) {
      this.keyVersions = Objects.requireNonNull(keyVersions, "keyVersions");
      return this;
    }

    /** At most this many buffered bytes (as the engine sizes its rows) before the largest group is written. */
    public Builder<R> bufferLimitBytes(long bufferLimitBytes) {
      this.bufferLimitBytes = bufferLimitBytes;
      return this;
    }

    /** Runs {@code hook} after each data file is written, before its stat is kept (fault tests). */
    public Builder<R> afterFileWritten(Runnable hook) {
      this.afterFileWritten = Objects.requireNonNull(hook, "hook");
      return this;
    }

    /**
     * @param instants asked for the instant to write, once per {@link TableWriter#prepareCommit} round,
     *     on the round's first file
     * @param converter turns buffered rows into changes when their group is written
     */
    public TableWriter<R> build(Supplier<String> instants, RowConverter<R> converter) {
      return new TableWriter<>(this, Objects.requireNonNull(instants, "instants"),
          Objects.requireNonNull(converter, "converter"));
    }
  }
}
