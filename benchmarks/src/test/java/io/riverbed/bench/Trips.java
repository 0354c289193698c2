package io.riverbed.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The trips-like rows of the Spark benchmarks, computed from ids by Spark expressions: a key's row
 * is the same in every run and every benchmark, so an upsert can hit exactly the keys it means to.
 */
final class Trips {
  static final int PARTITIONS = 48;
  static final String[] REGIONS = {"americas", "asia", "europe", "oceania"};
  static final long TS0 = 1_700_000_000_000L;
  static final long UPDATE_TS_SHIFT = 10_000_000_000L;
  static final String DATA_COLUMNS = "uuid, ts, rider, driver, begin_lat, begin_lon, end_lat, end_lon, fare, tip, "
      + "trip_seconds, currency, region, country, city";

  private Trips() {}

  /** The trips of ids {@code [fromId, toId)} that pass {@code idFilter} (a Spark SQL condition on {@code id}), in 4 partitions. */
  static Dataset<Row> generate(SparkSession spark, long fromId, long toId, String idFilter) {
    return spark.range(fromId, toId, 1, 4)
        .where(idFilter)
        .selectExpr(
            "md5(cast(id AS string)) AS h", "id", "cast(pmod(id, " + PARTITIONS + ") AS int) AS p")
        .selectExpr(
            "concat_ws('-', substr(h, 1, 8), substr(h, 9, 4), substr(h, 13, 4), substr(h, 17, 4), substr(h, 21, 12)) AS uuid",
            TS0 + " + id * 1000 AS ts",
            "concat('rider-', lpad(cast(pmod(id, 10000) AS string), 5, '0')) AS rider",
            "concat('driver-', lpad(cast(pmod(id, 2000) AS string), 4, '0')) AS driver",
            "pmod(hash(id, 1), 180000) / 1000.0 - 90 AS begin_lat",
            "pmod(hash(id, 2), 360000) / 1000.0 - 180 AS begin_lon",
            "pmod(hash(id, 3), 180000) / 1000.0 - 90 AS end_lat",
            "pmod(hash(id, 4), 360000) / 1000.0 - 180 AS end_lon",
            "pmod(hash(id, 5), 10000) / 100.0 AS fare",
            "pmod(hash(id, 6), 2000) / 100.0 AS tip",
            "cast(pmod(hash(id, 7), 3600) AS int) AS trip_seconds",
            "element_at(array('USD', 'EUR', 'INR', 'BRL'), cast(pmod(id, 4) AS int) + 1) AS currency",
            "element_at(array('" + String.join("', '", REGIONS) + "'), cast(p div 12 AS int) + 1) AS region",
            "concat('country_', (p div 4) % 3) AS country",
            "concat('city_', p % 4) AS city");
  }

  /** The projection that turns trips into their updates: a later {@code ts} (so they win the precombine) and a changed fare. */
  static String[] updated() {
    return new String[] {"uuid", "ts + " + UPDATE_TS_SHIFT + " AS ts", "rider", "driver", "begin_lat", "begin_lon",
        "end_lat", "end_lon", "fare + 1.0 AS fare", "tip", "trip_seconds", "currency", "region", "country", "city"};
  }

  /** The write options of a trips table, Hudi's keys: uuid key, region/country/city partitions (not hive-style), ts ordering. */
  static Map<String, String> writeOptions(String tableType, String operation) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("hoodie.table.name", "trips");
    o.put("hoodie.datasource.write.table.name", "trips");
    o.put("hoodie.datasource.write.table.type", tableType);
    o.put("hoodie.datasource.write.operation", operation);
    o.put("hoodie.datasource.write.recordkey.field", "uuid");
    o.put("hoodie.datasource.write.partitionpath.field", "region,country,city");
    o.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.ComplexKeyGenerator");
    o.put("hoodie.datasource.write.precombine.field", "ts");
    o.put("hoodie.datasource.write.hive_style_partitioning", "false");
    return o;
  }
}
