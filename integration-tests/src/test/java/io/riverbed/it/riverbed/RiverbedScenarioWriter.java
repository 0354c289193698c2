package io.riverbed.it.riverbed;

import io.riverbed.format.record.PayloadMergeRule;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.table.TimelineTimezone;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.timeline.RollbackMetadata;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.CompactionRunner;
import io.riverbed.format.write.CompactionScheduler;
import io.riverbed.format.write.RecordKeyer;
import io.riverbed.format.write.Rollback;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import io.riverbed.it.oracle.TimelineInstant;
import io.riverbed.it.scenario.ExpectedTable;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.Trip;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * Writes a scenario table on a Hadoop file system through Riverbed's core writer and committer
 * ({@link SingleTaskEngine}, whose map plays the index a Flink job keeps in state); keeps the
 * expected model after each completed instant.
 */
public final class RiverbedScenarioWriter {
  private final Path path;
  private final TableSpec spec;
  private final Table table;
  private final Schema schema;
  private final RecordKeyer keyer;
  private final SingleTaskEngine engine;
  private final ExpectedTable model;
  private final List<ScenarioTable.Commit> commits = new ArrayList<>();

  /** A writer of a new non-partitioned MERGE_ON_READ table keyed by {@code uuid} at {@code path}, named after its folder. */
  static RiverbedScenarioWriter mergeOnRead(Path path) {
    return new RiverbedScenarioWriter(path, new TableSpec(path.getFileName().toString(),
        TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false, Map.of()));
  }

  /** The table at local {@code path}, opened afresh (it sees what others wrote since). */
  static Table openLocal(Path path) throws java.io.IOException {
    return Table.open(org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()),
        new org.apache.hadoop.fs.Path(path.toUri()));
  }

  /** Writes the table at {@code path} on the local disk, in base files of up to 256 KiB. */
  RiverbedScenarioWriter(Path path, TableSpec spec) {
    this(localFileSystem(), new org.apache.hadoop.fs.Path(path.toUri()), path, spec, 256 * 1024);
  }

  private RiverbedScenarioWriter(FileSystem fs, org.apache.hadoop.fs.Path location, Path path, TableSpec spec, long maxFileSize) {
    this.path = path;
    this.spec = spec;
    this.schema = TripAvro.schema(spec.name());
    TableConfig config = TableConfig.builder(spec.name())
        .database("default")
        .type(spec.type() == TableSpec.TableType.MERGE_ON_READ ? TableType.MERGE_ON_READ : TableType.COPY_ON_WRITE)
        .recordKeyFields(spec.recordKeyFields())
        .partitionFields(Trip.PARTITION_FIELDS)
        .precombineField("ts")
        .keyGeneratorClass("org.apache.hudi.keygen.ComplexKeyGenerator")
        .hiveStylePartitioning(spec.hiveStylePartitioning())
        .payloadClass(PayloadMergeRule.DEFAULT.payloadClass())
        .createSchema(schema.toString())
        .timelineTimezone(TimelineTimezone.UTC)
        .build();
    this.table = Table.create(fs, location, config);
    this.keyer = RecordKeyer.forTable(config);
    this.engine = new SingleTaskEngine(table, schema,
        WriteOptions.fromMap(Map.of("hoodie.parquet.max.file.size", String.valueOf(maxFileSize))));
    this.model = new ExpectedTable(spec);
  }

  /**
   * Writes the table at {@code location} on {@code fs}, in base files of up to {@code maxFileSize}
   * bytes; the path of the {@link ScenarioTable} it finishes is then only a label.
   */
  public static RiverbedScenarioWriter onFileSystem(FileSystem fs, org.apache.hadoop.fs.Path location, TableSpec spec, long maxFileSize) {
    return new RiverbedScenarioWriter(fs, location, Path.of(location.toString()), spec, maxFileSize);
  }

  private static FileSystem localFileSystem() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A first load into new base files (MOR included), as a bulk insert does. */
  public ScenarioTable.Commit bulkInsert(List<Trip> trips) {
    String instant = engine.write(WriteOperationType.BULK_INSERT, trips.stream().map(this::toWriteRecord).toList(),
        Map.of());
    model.upsert(trips, instant);
    return recorded(instant, "bulk_insert");
  }

  public ScenarioTable.Commit upsert(List<Trip> trips) {
    String instant = engine.write(WriteOperationType.UPSERT, trips.stream().map(this::toWriteRecord).toList(),
        Map.of());
    model.upsert(trips, instant);
    return recorded(instant, "upsert");
  }

  public ScenarioTable.Commit delete(List<Trip> trips) {
    List<WriteRecord> deletes = trips.stream()
        .map(t -> WriteRecord.delete(spec.recordKey(t), t.partitionPath(spec.hiveStylePartitioning()), 0))
        .filter(d -> engine.index().containsKey(d.recordKey()))
        .toList();
    String instant = engine.write(WriteOperationType.DELETE, deletes, Map.of());
    deletes.forEach(d -> engine.index().remove(d.recordKey()));
    model.delete(trips);
    return recorded(instant, "delete");
  }

  /**
   * An upsert whose writer dies before committing: its files are written, the instant stays
   * inflight; then every failed write is rolled back. The model does not change.
   *
   * @return the rollbacks done
   */
  public List<RollbackMetadata> failedUpsertRolledBack(List<Trip> trips) {
    engine.writeUncommitted(WriteOperationType.UPSERT, trips.stream().map(this::toWriteRecord).toList()).abandon();
    return Rollback.rollbackFailedWrites(table.reload());
  }

  /** Schedules and runs a compaction of every file group with logs. */
  public ScenarioTable.Commit compact() {
    CompactionScheduler.Result scheduled = CompactionScheduler.of(table).execute();
    String instant = scheduled.instantTime().orElseThrow(() -> new IllegalStateException("nothing compacted: " + scheduled.reason()));
    CompactionRunner.of(table, instant).execute();
    ScenarioTable.Commit commit = new ScenarioTable.Commit(new TimelineInstant(instant, "commit"), "compaction", model.state());
    commits.add(commit);
    return commit;
  }

  public ExpectedTable model() {
    return model;
  }

  public Table table() {
    return table;
  }

  public ScenarioTable finish() {
    return new ScenarioTable(path, spec, commits, model.writtenVersions());
  }

  private WriteRecord toWriteRecord(Trip trip) {
    return keyer.toWriteRecord(TripAvro.toRecord(schema, trip));
  }

  private ScenarioTable.Commit recorded(String instant, String operation) {
    String action = table.refreshTimeline().find(instant).orElseThrow().action().word();
    ScenarioTable.Commit commit = new ScenarioTable.Commit(new TimelineInstant(instant, action), operation, model.state());
    commits.add(commit);
    return commit;
  }
}
