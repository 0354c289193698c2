package io.riverbed.flink.catalog;

import io.riverbed.flink.sql.HudiConnectorOptions;
import io.riverbed.format.table.TableConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a hudi catalog keeps of a table's Flink DDL beside its storage: the options the DDL gave
 * (without {@code connector} and {@code path}, which the catalog sets), the primary key and its
 * constraint name, the partition columns and the comment. The columns are not kept here: they are
 * the table's schema on storage.
 */
record TableDefinition(Map<String, String> options, List<String> primaryKey, String constraintName,
    List<String> partitionKeys, String comment) {

  TableDefinition {
    options = Map.copyOf(options);
    primaryKey = List.copyOf(primaryKey);
    partitionKeys = List.copyOf(partitionKeys);
  }

  /** A table no catalog created: what its {@code hoodie.properties} says (type, name, ordering field, keys, partitions). */
  static TableDefinition fromTableConfig(TableConfig config) {
    Map<String, String> options = new HashMap<>();
    options.put(HudiConnectorOptions.TABLE_TYPE.key(), config.type().name());
    options.put(HudiConnectorOptions.TABLE_NAME.key(), config.name());
    config.precombineField().ifPresent(f -> options.put(HudiConnectorOptions.PRECOMBINE_FIELD.key(), f));
    return new TableDefinition(options, config.recordKeyFields(), null, config.partitionFields(), null);
  }

  TableDefinition withOptions(Map<String, String> changed) {
    return new TableDefinition(changed, primaryKey, constraintName, partitionKeys, comment);
  }

  /** Column names in a comma-separated list, blanks dropped. */
  static List<String> columnList(String columns) {
    List<String> out = new ArrayList<>();
    if (columns != null) {
      for (String c : columns.split(",")) {
        if (!c.isBlank()) {
          out.add(c.trim());
        }
      }
    }
    return out;
  }
}
