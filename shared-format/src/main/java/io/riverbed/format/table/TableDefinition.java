package io.riverbed.format.table;

import io.riverbed.format.record.KeyGenerator;
import io.riverbed.format.record.KeyGeneratorOptions;
import org.apache.avro.Schema;

/**
 * What a writer knows about the table it creates on its first write: name, type, keys, ordering
 * field, payload class and schema; {@link #toConfig} is the {@code hoodie.properties} every engine
 * creates it with (UTC timeline, the key generator's class name, Hive-style and URL-encoded
 * partitioning as the keys say).
 *
 * @param precombineField null for a table without ordering field
 * @param payloadClass null for the table default
 * @param tableVersion 6 or 8 ({@link WriteTableVersion})
 */
public record TableDefinition(String name, TableType type, KeyGeneratorOptions keys, String precombineField,
    String payloadClass, Schema schema, int tableVersion) {

  public TableConfig toConfig() {
    var builder = TableConfig.builder(name)
        .type(type)
        .recordKeyFields(keys.recordKeyFields())
        .partitionFields(keys.partitionFields())
        .keyGeneratorClass(KeyGenerator.of(keys).className())
        .hiveStylePartitioning(keys.hiveStylePartitioning())
        .urlEncodePartitioning(keys.urlEncodePartitionPath())
        .payloadClass(payloadClass)
        .timelineTimezone(TimelineTimezone.UTC)
        .createSchema(schema.toString())
        .tableVersion(tableVersion);
    if (precombineField != null) {
      builder.precombineField(precombineField);
    }
    return builder.build();
  }
}
