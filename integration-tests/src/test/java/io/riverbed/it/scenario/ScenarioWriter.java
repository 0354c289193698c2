package io.riverbed.it.scenario;

import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.oracle.TimelineInstant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a table with Apache Hudi's Spark writer (DataFrame API, options by Hudi key names) and
 * keeps the independent expected model in step: after each write it lists the timeline, takes the
 * new write instant as the commit time of what it wrote and records the model state for it, and
 * records any other new write instant (a compaction commit) with an unchanged state.
 */
public final class ScenarioWriter {

  private static final Logger LOG = LoggerFactory.getLogger(ScenarioWriter.class);

  private final SparkSession spark;
  private final Path path;
  private final TableSpec spec;
  private final ExpectedTable model;
  private final List<ScenarioTable.Commit> commits = new ArrayList<>();

  public ScenarioWriter(SparkSession spark, Path path, TableSpec spec) {
    this.spark = spark;
    this.path = path;
    this.spec = spec;
    this.model = new ExpectedTable(spec);
  }

  public ScenarioWriter(Path path, TableSpec spec) {
    this(SparkOracle.spark(), path, spec);
  }

  public ScenarioTable.Commit bulkInsert(List<Trip> trips) {
    return write("bulk_insert", trips, Map.of(), instant -> model.upsert(trips, instant));
  }

  public ScenarioTable.Commit insert(List<Trip> trips) {
    return write("insert", trips, Map.of(), instant -> model.upsert(trips, instant));
  }

  public ScenarioTable.Commit upsert(List<Trip> trips) {
    return upsert(trips, Map.of());
  }

  /** An upsert with extra write options (e.g. inline compaction). */
  public ScenarioTable.Commit upsert(List<Trip> trips, Map<String, String> extraOptions) {
    return write("upsert", trips, extraOptions, instant -> model.upsert(trips, instant));
  }

  /** A hard delete of the given records' keys (operation {@code delete}). */
  public ScenarioTable.Commit delete(List<Trip> trips) {
    return write("delete", trips, Map.of(), instant -> model.delete(trips));
  }

  public ScenarioTable.Commit insertOverwrite(List<Trip> trips) {
    return write("insert_overwrite", trips, Map.of(), instant -> model.insertOverwrite(trips, instant));
  }

  /** The current model (live records by key). */
  public ExpectedTable model() {
    return model;
  }

  public ScenarioTable finish() {
    return new ScenarioTable(path, spec, commits, model.writtenVersions());
  }

  private ScenarioTable.Commit write(String operation, List<Trip> trips, Map<String, String> extraOptions,
      java.util.function.Consumer<String> applyToModel) {
    var before = new HashSet<>(Files.isDirectory(path.resolve(".hoodie"))
        ? TimelineInstant.completedWrites(path) : List.of());
    var options = new LinkedHashMap<>(spec.writeOptions());
    options.put("hoodie.datasource.write.operation", operation);
    options.putAll(extraOptions);
    long start = System.nanoTime();
    spark.createDataFrame(trips.stream().map(Trip::toRow).toList(), Trip.SCHEMA)
        .write().format(SparkOracle.HUDI_SOURCE).options(options).mode(SaveMode.Append)
        .save(path.toUri().toString());
    var added = TimelineInstant.completedWrites(path).stream().filter(i -> !before.contains(i)).toList();
    if (added.isEmpty()) {
      throw new IllegalStateException(operation + " on " + path + " completed no instant");
    }
    TimelineInstant written = added.get(0);
    applyToModel.accept(written.time());
    var commit = new ScenarioTable.Commit(written, operation, model.state());
    commits.add(commit);
    for (TimelineInstant service : added.subList(1, added.size())) {
      // A table service that completed inside the write (inline compaction: a `commit` on MOR).
      String label = spec.type() == TableSpec.TableType.MERGE_ON_READ && service.action().equals("commit")
          ? "compaction" : service.action();
      commits.add(new ScenarioTable.Commit(service, label, model.state()));
    }
    LOG.info("{} {} of {} records -> {} in {} ms ({} live)", spec.name(), operation, trips.size(), added,
        (System.nanoTime() - start) / 1_000_000, model.size());
    return commit;
  }
}
