package io.riverbed.spark.sql;

import io.riverbed.format.InvalidTableException;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.batch.BatchWriteOptions;
import io.riverbed.format.write.batch.SaveMode;
import io.riverbed.format.write.batch.SqlInsertOperation;
import io.riverbed.spark.LoadedTable;
import io.riverbed.spark.RiverbedCatalog;
import io.riverbed.spark.write.BatchWrite;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.collection.JavaConverters;

/**
 * The SQL writes into a Hudi table ({@code INSERT INTO}, {@code INSERT OVERWRITE}, the write of a
 * CTAS, {@code ALTER TABLE DROP PARTITION}), as Apache Hudi 0.15's {@code InsertIntoHoodieTableCommand}
 * and {@code AlterHoodieTableDropPartitionCommand} do them: the query's meta columns are dropped, its columns are matched to the table's data
 * columns by position (partition columns last, static {@code PARTITION (p = v)} values already in
 * place) or, for a CTAS, by name, and cast to the table's types; the operation comes from the
 * session's and the table's {@code hoodie.*} settings ({@link SqlInsertOperation}); the rows then
 * go through {@link BatchWrite}, as a {@code df.write} with those settings as options would.
 */
public final class SqlWrite {
  /** Reader settings a catalog table may carry, which are no write options. */
  private static final List<String> NOT_WRITE_OPTIONS = List.of(RiverbedCatalog.QUERY_AS_RO_TABLE,
      BatchWriteOptions.OPERATION, BatchWriteOptions.PARTITIONS_TO_DELETE);

  private SqlWrite() {}

  /**
   * {@code INSERT INTO}: appends {@code data} with the operation the settings choose; the write of
   * a CTAS is a {@code bulk_insert}, as Hudi's is.
   */
  public static void append(LoadedTable table, CatalogEntry entry, Dataset<Row> data) {
    Map<String, String> settings = settings(data.sparkSession(), entry);
    write(table, entry, data, settings,
        entry.createdAsSelect() ? WriteOperationType.BULK_INSERT : SqlInsertOperation.of(settings));
  }

  /** {@code INSERT OVERWRITE}: {@code insert_overwrite} of the partitions written, or {@code insert_overwrite_table}. */
  public static void overwrite(LoadedTable table, CatalogEntry entry, Dataset<Row> data, WriteOperationType operation) {
    write(table, entry, data, settings(data.sparkSession(), entry), operation);
  }

  /** {@code ALTER TABLE t DROP PARTITION (...)}: a {@code delete_partition} of the partition at {@code partitionPath}. */
  public static void deletePartition(LoadedTable table, CatalogEntry entry, SparkSession spark, String partitionPath) {
    Map<String, String> options = writeOptions(spark, table, entry, settings(spark, entry),
        WriteOperationType.DELETE_PARTITION);
    options.put(BatchWriteOptions.PARTITIONS_TO_DELETE, partitionPath);
    BatchWrite.run(spark, spark.createDataFrame(List.of(), dataColumns(table)), options, SaveMode.APPEND);
  }

  private static void write(LoadedTable table, CatalogEntry entry, Dataset<Row> data, Map<String, String> settings,
      WriteOperationType operation) {
    Dataset<Row> aligned = align(entry, dataColumns(table), data);
    BatchWrite.run(data.sparkSession(), aligned, writeOptions(data.sparkSession(), table, entry, settings, operation),
        SaveMode.APPEND);
  }

  private static Map<String, String> writeOptions(SparkSession spark, LoadedTable table, CatalogEntry entry,
      Map<String, String> settings, WriteOperationType operation) {
    Map<String, String> options = new HashMap<>(settings);
    options.putAll(SqlHiveSync.syncOptions(spark, entry, table.table().config(), settings));
    SqlInsertOperation.KEYS.forEach(options::remove);
    NOT_WRITE_OPTIONS.forEach(options::remove);
    options.put("path", table.table().basePath().toString());
    options.put(BatchWriteOptions.OPERATION, operation.value());
    return options;
  }

  /** The table's columns a write fills: every column but the meta columns, partition columns last. */
  static StructType dataColumns(LoadedTable table) {
    return new StructType(Arrays.stream(table.sparkSchema().fields())
        .filter(f -> !MetaFields.ALL.contains(f.name())).toArray(StructField[]::new));
  }

  /**
   * The {@code hoodie.*} settings of a write: the session's ({@code SET hoodie.x = y}), overridden
   * by the table's properties and options; {@value TableAlteration#SCHEMA_ON_READ}, which only
   * {@code ALTER TABLE} reads, is not one.
   */
  static Map<String, String> settings(SparkSession spark, CatalogEntry entry) {
    Map<String, String> settings = new HashMap<>();
    JavaConverters.mapAsJavaMapConverter(spark.sessionState().conf().getAllConfs()).asJava().forEach((k, v) -> {
      if (k.startsWith("hoodie.")) {
        settings.put(k, v);
      }
    });
    entry.properties().forEach((k, v) -> {
      String key = k.startsWith(TableCatalog.OPTION_PREFIX) ? k.substring(TableCatalog.OPTION_PREFIX.length()) : k;
      if (key.startsWith("hoodie.")) {
        settings.put(key, v);
      }
    });
    settings.remove(TableAlteration.SCHEMA_ON_READ);
    return settings;
  }

  /**
   * The query's rows as the table's data columns: meta columns dropped, then by position (or by
   * name for a CTAS), each cast to the table's type.
   *
   * @throws InvalidTableException naming the table and the columns when the query does not fit
   */
  static Dataset<Row> align(CatalogEntry entry, StructType target, Dataset<Row> data) {
    List<Integer> kept = new ArrayList<>();
    String[] names = data.columns();
    for (int i = 0; i < names.length; i++) {
      if (!MetaFields.ALL.contains(names[i]) && !MetaFields.OPERATION.equals(names[i])) {
        kept.add(i);
      }
    }
    String[] positional = IntStream.range(0, names.length).mapToObj(i -> "_c" + i).toArray(String[]::new);
    Dataset<Row> renamed = data.toDF(positional);
    List<String> given = kept.stream().map(i -> names[i]).toList();
    Column[] columns = new Column[target.size()];
    for (int t = 0; t < target.size(); t++) {
      StructField field = target.fields()[t];
      int source = entry.createdAsSelect() ? byName(entry, given, field.name(), target) : t;
      if (!entry.createdAsSelect() && given.size() != target.size()) {
        throw new InvalidTableException("INSERT INTO " + entry.name() + ": the query gives " + given.size()
            + " columns " + given + " but the table has " + target.size() + " data columns "
            + Arrays.asList(target.fieldNames()) + " (partition columns last); give one value per column, in order");
      }
      columns[t] = renamed.col(positional[kept.get(source)]).cast(field.dataType()).as(field.name());
    }
    return renamed.select(columns);
  }

  private static int byName(CatalogEntry entry, List<String> given, String column, StructType target) {
    List<Integer> found = IntStream.range(0, given.size())
        .filter(i -> given.get(i).toLowerCase(Locale.ROOT).equals(column.toLowerCase(Locale.ROOT))).boxed().toList();
    if (found.size() != 1) {
      throw new InvalidTableException("CREATE TABLE " + entry.name() + " AS SELECT: the query "
          + (found.isEmpty() ? "has no column " : "has more than one column ") + column + " of the table's columns "
          + Arrays.asList(target.fieldNames()) + " (query columns: " + given + ")");
    }
    return found.get(0);
  }
}
