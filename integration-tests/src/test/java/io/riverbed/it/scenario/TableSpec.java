package io.riverbed.it.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How a scenario table is laid out, as Hudi write options: name, type, record key fields (may be
 * composite or nested), partitioning and any extra options (metadata table, payload, ...).
 */
public record TableSpec(
    String name,
    TableType type,
    List<String> recordKeyFields,
    boolean hiveStylePartitioning,
    Map<String, String> extraOptions) {

  public enum TableType { COPY_ON_WRITE, MERGE_ON_READ }

  public static final String DEFAULT_PAYLOAD = "org.apache.hudi.common.model.DefaultHoodieRecordPayload";

  public TableSpec {
    recordKeyFields = List.copyOf(recordKeyFields);
    extraOptions = Map.copyOf(extraOptions);
  }

  /** The Hudi write options shared by every write to this table (operation excluded). */
  public Map<String, String> writeOptions() {
    var o = new LinkedHashMap<String, String>();
    o.put("hoodie.table.name", name);
    o.put("hoodie.datasource.write.table.name", name);
    o.put("hoodie.datasource.write.table.type", type.name());
    o.put("hoodie.datasource.write.recordkey.field", String.join(",", recordKeyFields));
    o.put("hoodie.datasource.write.partitionpath.field", String.join(",", Trip.PARTITION_FIELDS));
    o.put("hoodie.datasource.write.precombine.field", "ts");
    o.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.ComplexKeyGenerator");
    o.put("hoodie.datasource.write.hive_style_partitioning", Boolean.toString(hiveStylePartitioning));
    o.put("hoodie.datasource.write.payload.class", DEFAULT_PAYLOAD);
    o.put("hoodie.payload.ordering.field", "ts");
    o.put("hoodie.payload.event.time.field", "ts");
    // Small and quick: two cores, no embedded timeline server, no table services unless asked.
    o.put("hoodie.upsert.shuffle.parallelism", "2");
    o.put("hoodie.insert.shuffle.parallelism", "2");
    o.put("hoodie.bulkinsert.shuffle.parallelism", "2");
    o.put("hoodie.delete.shuffle.parallelism", "2");
    o.put("hoodie.embed.timeline.server", "false");
    o.put("hoodie.compact.inline", "false");
    o.put("hoodie.datasource.compaction.async.enable", "false");
    o.putAll(extraOptions);
    return o;
  }

  /** The record key Hudi derives for a trip (ComplexKeyGenerator: {@code f1:v1,f2:v2} when composite). */
  public String recordKey(Trip trip) {
    if (recordKeyFields.size() == 1) {
      return FIELD_VALUES.get(recordKeyFields.get(0)).apply(trip);
    }
    var sb = new StringBuilder();
    for (String f : recordKeyFields) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(f).append(':').append(FIELD_VALUES.get(f).apply(trip));
    }
    return sb.toString();
  }

  private static final Map<String, Function<Trip, String>> FIELD_VALUES = Map.of(
      "uuid", Trip::uuid,
      "driver", Trip::driver,
      "rider.id", Trip::riderId);
}
