package io.riverbed.it.hive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;

/**
 * What the metastore holds for a synced table, field by field, in a form two syncs' results can be
 * compared in: the hive sync tests compare Hudi's registration of a table with Riverbed's.
 */
public final class MetastoreDescriptors {
  private MetastoreDescriptors() {}

  /** Everything the metastore holds for a table that a sync decides, field by field. */
  public static Map<String, Object> describe(IMetaStoreClient hms, String db, String table) throws Exception {
    var t = hms.getTable(db, table);
    var d = new LinkedHashMap<String, Object>();
    d.put("tableType", t.getTableType());
    d.put("owner", t.getOwner());
    d.put("columns", columns(t.getSd().getCols()));
    d.put("partitionKeys", columns(t.getPartitionKeys()));
    d.put("inputFormat", t.getSd().getInputFormat());
    d.put("outputFormat", t.getSd().getOutputFormat());
    d.put("serde", t.getSd().getSerdeInfo().getSerializationLib());
    d.put("serdeName", t.getSd().getSerdeInfo().getName());
    d.put("serdeParameters", new TreeMap<>(t.getSd().getSerdeInfo().getParameters()));
    d.put("location", t.getSd().getLocation());
    d.put("bucketCols", t.getSd().getBucketCols());
    d.put("numBuckets", t.getSd().getNumBuckets());
    var params = new TreeMap<>(t.getParameters());
    params.remove("transient_lastDdlTime");
    d.put("parameters", params);
    var partitions = new TreeMap<String, String>();
    for (Partition p : hms.listPartitions(db, table, (short) -1)) {
      partitions.put(p.getValues().toString(), p.getSd().getLocation() + " " + columns(p.getSd().getCols())
          + " " + p.getSd().getInputFormat() + " " + new TreeMap<>(p.getSd().getSerdeInfo().getParameters()));
    }
    d.put("partitions", partitions);
    return d;
  }

  static List<String> columns(List<FieldSchema> fields) {
    return fields.stream().map(f -> f.getName() + " " + f.getType() + " " + f.getComment()).toList();
  }
}
