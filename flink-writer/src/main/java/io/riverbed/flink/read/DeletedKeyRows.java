package io.riverbed.flink.read;

import io.riverbed.format.TableException;
import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.TableConfig;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The row a streaming read emits for a key a commit deleted: a {@link RowKind#DELETE} row holding
 * what the key itself says (its record key fields, the partition fields of its partition path, and
 * the meta columns for key and partition), every other column null, as Hudi's Flink reader emits
 * deletes. An upsert changelog needs no more: Flink finds the deleted row by its key.
 */
final class DeletedKeyRows {
  private final RowType rowType;
  private final KeyGenerator keys;
  private final Function<String, Object>[] fromText;

  @SuppressWarnings("unchecked")
  DeletedKeyRows(RowType rowType, TableConfig config) {
    this.rowType = rowType;
    this.keys = KeyGenerator.fromMap(config.properties());
    List<String> keyFields = keys.options().recordKeyFields();
    this.fromText = new Function[rowType.getFieldCount()];
    for (int i = 0; i < fromText.length; i++) {
      String name = rowType.getFieldNames().get(i);
      fromText[i] = fromText(rowType.getTypeAt(i));
      if (fromText[i] == null && keyFields.contains(name)) {
        throw new TableException("column '" + name + "' of type " + rowType.getTypeAt(i) + " is a record key field, "
            + "which a streaming read cannot give a deleted row from its record key; read the table in batch, or key it "
            + "by a column of a string, integer, decimal, boolean or date type");
      }
    }
  }

  RowData of(String recordKey, String partitionPath) {
    Map<String, String> keyValues = keys.recordKeyValues(recordKey);
    Map<String, String> partitionValues = keys.partitionValues(partitionPath);
    GenericRowData row = new GenericRowData(RowKind.DELETE, fromText.length);
    for (int i = 0; i < fromText.length; i++) {
      String name = rowType.getFieldNames().get(i);
      String text = switch (name) {
        case MetaFields.RECORD_KEY -> recordKey;
        case MetaFields.PARTITION_PATH -> partitionPath;
        default -> keyValues.containsKey(name) ? keyValues.get(name) : partitionValues.get(name);
      };
      if (text != null && fromText[i] != null) {
        row.setField(i, fromText[i].apply(text));
      }
    }
    return row;
  }

  /** The column's value from a key's or partition's text; null for a type that has no text form here. */
  private static Function<String, Object> fromText(LogicalType type) {
    return switch (type.getTypeRoot()) {
      case CHAR, VARCHAR -> StringData::fromString;
      case BOOLEAN -> Boolean::parseBoolean;
      case TINYINT -> Byte::parseByte;
      case SMALLINT -> Short::parseShort;
      case INTEGER -> Integer::parseInt;
      case BIGINT -> Long::parseLong;
      case FLOAT -> Float::parseFloat;
      case DOUBLE -> Double::parseDouble;
      case DECIMAL -> {
        DecimalType decimal = (DecimalType) type;
        yield t -> DecimalData.fromBigDecimal(new BigDecimal(t), decimal.getPrecision(), decimal.getScale());
      }
      case DATE -> t -> t.indexOf('-', 1) > 0 ? (int) LocalDate.parse(t).toEpochDay() : Integer.parseInt(t);
      default -> null;
    };
  }
}
