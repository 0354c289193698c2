package io.riverbed.spark;

import io.riverbed.format.TableException;
import io.riverbed.format.file.NioLocalFileSystem;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.TableSchemas;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructType;

/**
 * A table opened for one {@code load()}: where it is, the planned query (timeline, schema, query
 * instant, splits) and the Spark schema, its columns in the order Hudi's reader gives this query
 * ({@link TableSchema#partitionColumnsLast}). Planned once, so every action on the DataFrame reads the
 * same snapshot, as Hudi's file index does until it is refreshed.
 */
public final class LoadedTable {
  private final ReadOptions options;
  private final TableLocation location;
  private final Table table;
  private final QueryPlan plan;
  private final Schema avroSchema;
  private final StructType sparkSchema;

  private LoadedTable(ReadOptions options, TableLocation location, Table table, QueryPlan plan, Schema avroSchema,
      boolean partitionColumnsLast) {
    this.options = options;
    this.location = location;
    this.table = table;
    this.plan = plan;
    this.avroSchema = avroSchema;
    this.sparkSchema = partitionColumnsLast ? TableSchema.sparkSchema(avroSchema, table.config().partitionFields())
        : AvroSchemaConverter.toStructType(avroSchema);
  }

  public static LoadedTable load(ReadOptions options, Configuration conf) {
    FileSystem fs;
    try {
      fs = NioLocalFileSystem.of(new Path(options.path().replaceAll("[*?\\[{].*$", "")), conf);
    } catch (java.io.IOException e) {
      throw new TableException("hudi: cannot reach the file system of " + options.path() + ": " + e.getMessage(), e);
    }
    TableLocation location = TableLocation.resolve(fs, options.path());
    Table table = Table.open(fs, location.basePath());
    QueryPlan plan = QueryPlanner.plan(table, options.query());
    options.query().asOfInstant().ifPresent(asOf -> checkTimeTravel(table, plan.activeTimeline(), asOf));
    Schema schema = plan.schema().orElseGet(LoadedTable::metaFieldsOnly);
    boolean partitionColumnsLast = TableSchema.partitionColumnsLast(table.config().type(), options.query().type(),
        location.partitionGlob().isPresent());
    return new LoadedTable(options, location, table, plan, schema, partitionColumnsLast);
  }

  /** This table with the catalog's column order, partition columns last, as Hudi's catalog orders every query's. */
  public LoadedTable inCatalogOrder() {
    return new LoadedTable(options, location, table, plan, avroSchema, true);
  }

  /**
   * Hudi's {@code TimelineUtils.validateTimestampAsOf} (the instant must precede the first
   * incomplete commit); a table with no completed commit is refused. An instant before the first
   * completed commit is answered, as Hudi 0.15 answers it: no rows, the table's schema.
   */
  static void checkTimeTravel(Table table, Timeline active, String asOf) {
    Optional<Instant> firstIncomplete = active.commitsTimeline().pending()
        .filter(i -> i.action() != Action.REPLACE_COMMIT).first();
    if (firstIncomplete.isPresent() && asOf.compareTo(firstIncomplete.get().time()) >= 0) {
      throw new TableException("hudi: time travel to " + asOf + " in table " + table.basePath()
          + ": the instant must be earlier than the first incomplete commit " + firstIncomplete.get().time());
    }
    if (active.writeTimeline().completed().first().isEmpty()) {
      throw new TableException("hudi: time travel to " + asOf + " in table " + table.basePath()
          + ": the table has no completed commit");
    }
  }

  private static Schema metaFieldsOnly() {
    Schema empty = Schema.createRecord("hoodie_record", null, "hoodie", false);
    empty.setFields(List.of());
    return TableSchemas.addMetaFields(empty);
  }

  public ReadOptions options() {
    return options;
  }

  public TableLocation location() {
    return location;
  }

  public Table table() {
    return table;
  }

  public QueryPlan plan() {
    return plan;
  }

  /** The table schema with meta fields (Avro), as merged records carry it. */
  public Schema avroSchema() {
    return avroSchema;
  }

  public StructType sparkSchema() {
    return sparkSchema;
  }

  public QuerySpec query() {
    return options.query();
  }

  public String name() {
    return "hudi " + table.name() + " at " + table.basePath();
  }

  static boolean isMetaColumn(String name) {
    return MetaFields.ALL.contains(name);
  }
}
