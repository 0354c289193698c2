package io.riverbed.hive.input;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.serde.serdeConstants;
import org.apache.hadoop.hive.serde2.ColumnProjectionUtils;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;

/**
 * The columns Hive reads a table by, as its job configuration gives them: every column of the
 * table's row, in order ({@code columns}, {@code columns.types}: the positions Hive's
 * {@code ParquetHiveSerDe} inspects), and which of them the query reads
 * ({@code hive.io.file.readcolumn.names}); the others are left null.
 *
 * @param names the columns, lower case as Hive names them
 * @param types their Hive types
 * @param read the names of the columns the query reads
 */
record HiveColumns(List<String> names, List<TypeInfo> types, Set<String> read) {

  static HiveColumns of(Configuration conf, String table) {
    String names = conf.get(serdeConstants.LIST_COLUMNS);
    String types = conf.get(serdeConstants.LIST_COLUMN_TYPES);
    if (names == null || types == null) {
      throw new HiveInputException("Hive gave no " + serdeConstants.LIST_COLUMNS + " or " + serdeConstants.LIST_COLUMN_TYPES
          + " for a read of table " + table);
    }
    List<String> nameList = names.isEmpty() ? List.of() : Arrays.asList(names.split(","));
    List<TypeInfo> typeList = TypeInfoUtils.getTypeInfosFromTypeString(types);
    if (typeList.size() < nameList.size()) {
      throw new HiveInputException("table " + table + ": Hive gave " + nameList.size() + " columns (" + names + ") but "
          + typeList.size() + " types (" + types + ")");
    }
    List<String> lower = new ArrayList<>();
    for (String n : nameList) {
      lower.add(n.trim().toLowerCase(Locale.ROOT));
    }
    Set<String> read = new HashSet<>();
    if (ColumnProjectionUtils.isReadAllColumns(conf)) {
      read.addAll(lower);
    } else {
      for (String n : ColumnProjectionUtils.getReadColumnNames(conf)) {
        read.add(n.trim().toLowerCase(Locale.ROOT));
      }
    }
    return new HiveColumns(List.copyOf(lower), List.copyOf(typeList.subList(0, lower.size())), Set.copyOf(read));
  }
}
