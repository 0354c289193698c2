package io.riverbed.flink.write;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Finds a null element in a row's arrays (at any depth: in nested rows, arrays and map values).
 * Parquet's two-level lists ({@code parquet.avro.write-old-list-structure=true}, Hudi 0.15's
 * default) cannot hold one, so such a row must be refused before it is buffered.
 */
public final class NullListElements {
  private final RowType rowType;
  private final boolean anyNullableElement;

  public NullListElements(RowType rowType) {
    this.rowType = rowType;
    this.anyNullableElement = holdsNullableElement(rowType);
  }

  /** The path of the first null array element of {@code row}, as {@code field[index]}; else null. */
  public String firstIn(RowData row) {
    return anyNullableElement ? inRow(row, rowType, "") : null;
  }

  private static boolean holdsNullableElement(LogicalType type) {
    if (type instanceof ArrayType array && array.getElementType().isNullable()) {
      return true;
    }
    return type.getChildren().stream().anyMatch(NullListElements::holdsNullableElement);
  }

  private static String inRow(RowData row, RowType type, String prefix) {
    for (int i = 0; i < type.getFieldCount(); i++) {
      if (!row.isNullAt(i)) {
        String found = inValue(RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row), type.getTypeAt(i),
            prefix + type.getFieldNames().get(i));
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static String inValue(Object value, LogicalType type, String path) {
    if (value == null || !holdsNullableElement(type)) {
      return null;
    }
    if (type instanceof RowType row) {
      return inRow((RowData) value, row, path + ".");
    }
    if (type instanceof ArrayType array) {
      ArrayData data = (ArrayData) value;
      ArrayData.ElementGetter getter = ArrayData.createElementGetter(array.getElementType());
      for (int i = 0; i < data.size(); i++) {
        String elementPath = path + "[" + i + "]";
        if (data.isNullAt(i)) {
          return elementPath;
        }
        String found = inValue(getter.getElementOrNull(data, i), array.getElementType(), elementPath);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
    if (type instanceof MapType map) {
      ArrayData values = ((MapData) value).valueArray();
      ArrayData.ElementGetter getter = ArrayData.createElementGetter(map.getValueType());
      for (int i = 0; i < values.size(); i++) {
        String found = inValue(getter.getElementOrNull(values, i), map.getValueType(), path + "{value " + i + "}");
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }
}
