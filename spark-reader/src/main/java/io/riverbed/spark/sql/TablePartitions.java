package io.riverbed.spark.sql;

import io.riverbed.format.TableException;
import io.riverbed.format.record.PartitionPaths;
import io.riverbed.format.table.TableConfig;
import io.riverbed.spark.LoadedTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EvalMode;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * The partitions of a loaded table as Spark's partition management sees them: the partition
 * columns (the table's partition fields that are top-level columns, typed as the data has them)
 * and one identifier per partition that holds live file slices in the loaded snapshot, its values
 * read from the partition path as the table's key generator wrote it.
 */
public final class TablePartitions {
  private final LoadedTable table;
  private final String tableName;
  private final StructType schema;

  public TablePartitions(LoadedTable table, String tableName) {
    this.table = table;
    this.tableName = tableName;
    StructType all = table.sparkSchema();
    this.schema = new StructType(table.table().config().partitionFields().stream()
        .filter(f -> all.getFieldIndex(f).isDefined()).map(all::apply).toArray(StructField[]::new));
  }

  public StructType schema() {
    return schema;
  }

  /** The partitions whose values in {@code names} equal those of {@code ident} (all of them for no names). */
  public InternalRow[] list(String[] names, InternalRow ident) {
    return identifiers().values().stream().filter(row -> matches(row, names, ident))
        .map(GenericInternalRow::new).toArray(InternalRow[]::new);
  }

  /** The partition path of a partition {@link #list} gave. */
  public String pathOf(InternalRow ident) {
    String[] names = schema.fieldNames();
    return identifiers().entrySet().stream().filter(e -> matches(e.getValue(), names, ident)).map(Map.Entry::getKey)
        .findFirst().orElseThrow(() -> new TableException(tableName + ": no partition " + ident));
  }

  /** Partition path → the partition's values, typed, for the partitions holding live file slices. */
  private Map<String, Object[]> identifiers() {
    TableConfig config = table.table().config();
    List<String> fields = config.partitionFields();
    TreeSet<String> paths = new TreeSet<>();
    table.plan().splits().forEach(s -> paths.add(s.slice().partitionPath()));
    Map<String, Object[]> out = new LinkedHashMap<>();
    for (String path : paths) {
      Map<String, String> values = PartitionPaths.parse(path, fields, config.hiveStylePartitioning(),
          config.urlEncodePartitioning());
      Object[] row = new Object[schema.size()];
      for (int i = 0; i < schema.size(); i++) {
        StructField f = schema.fields()[i];
        row[i] = typed(values.get(f.name()), f, path);
      }
      out.put(path, row);
    }
    return out;
  }

  /** The error for a partition statement Riverbed does not run on this table. */
  public UnsupportedOperationException unsupported(String statement) {
    return new UnsupportedOperationException(statement + " on " + tableName + " is not supported by Riverbed "
        + "(partitions of a hudi table come from its writes)");
  }

  private boolean matches(Object[] row, String[] names, InternalRow ident) {
    for (int i = 0; i < names.length; i++) {
      int at = schema.fieldIndex(names[i]);
      Object wanted = ident.isNullAt(i) ? null : ident.get(i, schema.fields()[at].dataType());
      if (!Objects.equals(row[at], wanted)) {
        return false;
      }
    }
    return true;
  }

  private Object typed(String text, StructField field, String path) {
    if (text == null) {
      return null;
    }
    Object value = new Cast(Literal.create(text, DataTypes.StringType), field.dataType(), Option.apply("UTC"),
        EvalMode.LEGACY()).eval(null);
    if (value == null) {
      throw new TableException(tableName + ": partition path '" + path + "' holds '" + text + "' for column "
          + field.name() + ", which is not a " + field.dataType().simpleString());
    }
    return value;
  }
}
