package io.riverbed.flink.sql;

import io.riverbed.flink.job.TableSinkBuilder;
import io.riverbed.flink.read.HudiTableSource;
import io.riverbed.flink.read.HudiStreamingTableSource;
import io.riverbed.flink.read.ReadQuery;
import io.riverbed.flink.read.StreamingRead;
import io.riverbed.flink.read.TableToRead;
import io.riverbed.flink.sink.FlinkWriteOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The {@code 'connector' = 'hudi'} table factory. Its source is the batch {@link HudiTableSource}
 * (snapshot, read-optimized, incremental and time-travel reads with Hudi's Flink read options), or
 * with {@code read.streaming.enabled} the {@link HudiStreamingTableSource} (the changes of every
 * commit as an upsert changelog).
 * For its sink it resolves the options the way
 * Hudi's {@code HoodieTableFactory} does: {@code PRIMARY KEY} sets the record key,
 * {@code PARTITIONED BY} the partition fields, the table name defaults to the SQL table's name,
 * and the default ordering field {@code ts} is dropped ({@code no_precombine}) when the table has
 * no such column. Options it does not read are passed on to the writer unchanged.
 */
public class HudiTableFactory implements DynamicTableSinkFactory, DynamicTableSourceFactory {
  public static final String IDENTIFIER = "hudi";

  private final TableSinkBuilder writer;

  public HudiTableFactory() {
    this(TableSinkBuilder.tableWriter());
  }

  /** For a factory writing through another writer (tests, other identifiers). */
  protected HudiTableFactory(TableSinkBuilder writer) {
    this.writer = writer;
  }

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(HudiConnectorOptions.PATH);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of(HudiConnectorOptions.TABLE_NAME, HudiConnectorOptions.TABLE_TYPE, HudiConnectorOptions.RECORD_KEY_FIELD,
        HudiConnectorOptions.PARTITION_PATH_FIELD, HudiConnectorOptions.PRECOMBINE_FIELD, HudiConnectorOptions.OPERATION,
        HudiConnectorOptions.HIVE_STYLE_PARTITIONING, HudiConnectorOptions.WRITE_TASKS, HudiConnectorOptions.QUERY_TYPE,
        HudiConnectorOptions.READ_START_COMMIT, HudiConnectorOptions.READ_END_COMMIT, HudiConnectorOptions.READ_TASKS,
        HudiConnectorOptions.READ_STREAMING_ENABLED, HudiConnectorOptions.READ_STREAMING_CHECK_INTERVAL,
        HudiConnectorOptions.READ_STREAMING_SKIP_COMPACTION, HudiConnectorOptions.CONSUMER_ID,
        HudiConnectorOptions.LOOKUP_JOIN_CACHE_TTL);
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    ResolvedCatalogTable table = context.getCatalogTable();
    String name = context.getObjectIdentifier().asSummaryString();
    Map<String, String> options = new HashMap<>(table.getOptions());
    options.remove(FactoryUtil.CONNECTOR.key());
    Configuration conf = Configuration.fromMap(options);
    String path = conf.get(HudiConnectorOptions.PATH);
    if (path == null || path.isBlank()) {
      throw new ValidationException("Table " + name + ": option 'path' (the table's base path) is required for 'connector' = 'hudi'");
    }
    Integer tasks = conf.get(HudiConnectorOptions.READ_TASKS);
    if (tasks != null && tasks < 1) {
      throw new ValidationException("Table " + name + ": option '" + HudiConnectorOptions.READ_TASKS.key() + "' must be at least 1, got "
          + tasks);
    }
    RowType rowType = (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
    StreamingRead streaming = StreamingRead.fromOptions(conf);
    TableToRead source = new TableToRead(path, options);
    if (streaming != null) {
      if (table.getResolvedSchema().getPrimaryKey().isEmpty()) {
        throw new ValidationException("Table " + name + ": a streaming read ('"
            + HudiConnectorOptions.READ_STREAMING_ENABLED.key() + "' = 'true') emits an upsert changelog, which needs the "
            + "table's record key declared as PRIMARY KEY (...) NOT ENFORCED");
      }
      source.open();
      return new HudiStreamingTableSource(source, streaming, rowType, tasks, name);
    }
    ReadQuery query = ReadQuery.fromOptions(conf);
    source.open();
    return new HudiTableSource(source, query, rowType, table.getPartitionKeys(), tasks, name,
        conf.get(HudiConnectorOptions.LOOKUP_JOIN_CACHE_TTL));
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    ResolvedCatalogTable table = context.getCatalogTable();
    String name = context.getObjectIdentifier().asSummaryString();
    RowType rowType = (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
    Map<String, String> options = resolveOptions(name, context.getObjectIdentifier().getObjectName(), table, rowType);
    boolean keepMaterializer = context.getConfiguration().get(ExecutionConfigOptions.TABLE_EXEC_SINK_UPSERT_MATERIALIZE)
        == ExecutionConfigOptions.UpsertMaterialize.FORCE;
    return new HudiTableSink(writer, rowType, options, name, keepMaterializer);
  }

  /** The writer's options for {@code table}: validated, with keys, partitions and names resolved. */
  public static Map<String, String> resolveOptions(String name, String objectName, ResolvedCatalogTable table, RowType rowType) {
    Map<String, String> options = new HashMap<>(table.getOptions());
    options.remove(FactoryUtil.CONNECTOR.key());
    Configuration conf = Configuration.fromMap(options);
    List<String> columns = rowType.getFieldNames();

    String path = conf.get(HudiConnectorOptions.PATH);
    if (path == null || path.isBlank()) {
      throw new ValidationException("Table " + name + ": option 'path' (the table's base path) is required for 'connector' = 'hudi'");
    }
    String type = conf.get(HudiConnectorOptions.TABLE_TYPE).toUpperCase(Locale.ROOT);
    if (!HudiConnectorOptions.TABLE_TYPES.contains(type)) {
      throw new ValidationException("Table " + name + ": option 'table.type' must be one of " + HudiConnectorOptions.TABLE_TYPES
          + ", got '" + conf.get(HudiConnectorOptions.TABLE_TYPE) + "'");
    }
    options.remove(FlinkWriteOptions.TABLE_TYPE_FALLBACK);
    options.put(HudiConnectorOptions.TABLE_TYPE.key(), type);
    String operation = conf.get(HudiConnectorOptions.OPERATION).toLowerCase(Locale.ROOT);
    if (!HudiConnectorOptions.OPERATIONS.contains(operation)) {
      throw new ValidationException("Table " + name + ": option 'write.operation' must be one of " + HudiConnectorOptions.OPERATIONS
          + ", got '" + conf.get(HudiConnectorOptions.OPERATION) + "'");
    }
    options.put(HudiConnectorOptions.OPERATION.key(), operation);
    options.putIfAbsent(HudiConnectorOptions.TABLE_NAME.key(), objectName);

    // Record key: PRIMARY KEY wins over the option (as in Hudi).
    List<String> recordKey = table.getResolvedSchema().getPrimaryKey().map(UniqueConstraint::getColumns)
        .orElse(List.of(conf.get(HudiConnectorOptions.RECORD_KEY_FIELD).split(",")));
    for (String key : recordKey) {
      if (!columns.contains(key.trim())) {
        throw new ValidationException("Table " + name + ": record key field '" + key.trim() + "' is not a column "
            + columns + "; declare PRIMARY KEY (...) NOT ENFORCED or set 'hoodie.datasource.write.recordkey.field'");
      }
    }
    options.put(HudiConnectorOptions.RECORD_KEY_FIELD.key(), String.join(",", recordKey.stream().map(String::trim).toList()));

    // Partition fields: PARTITIONED BY wins over the option.
    List<String> partitions = table.isPartitioned() ? table.getPartitionKeys()
        : List.of(conf.get(HudiConnectorOptions.PARTITION_PATH_FIELD).split(",")).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    for (String p : partitions) {
      if (!columns.contains(p)) {
        throw new ValidationException("Table " + name + ": partition field '" + p + "' is not a column " + columns);
      }
    }
    options.put(HudiConnectorOptions.PARTITION_PATH_FIELD.key(), String.join(",", partitions));

    // Ordering field: an explicit one must exist; the default 'ts' is dropped when absent.
    String precombine = conf.get(HudiConnectorOptions.PRECOMBINE_FIELD);
    boolean explicit = conf.contains(HudiConnectorOptions.PRECOMBINE_FIELD);
    if (!precombine.equals(HudiConnectorOptions.NO_PRECOMBINE) && !columns.contains(precombine)) {
      if (explicit) {
        throw new ValidationException("Table " + name + ": ordering field '" + precombine + "' (option 'precombine.field') is not a column "
            + columns + "; use 'no_precombine' to write without one");
      }
      precombine = HudiConnectorOptions.NO_PRECOMBINE;
    }
    options.remove(FlinkWriteOptions.PRECOMBINE_FIELD_FALLBACK_1);
    options.remove(FlinkWriteOptions.PRECOMBINE_FIELD_FALLBACK_2);
    options.put(HudiConnectorOptions.PRECOMBINE_FIELD.key(), precombine);
    return options;
  }
}
