package io.riverbed.it.scenario;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One record of the trips-like test schema: a string key, a nested {@code rider} struct, a long
 * precombine field {@code ts}, assorted types, and three partition columns giving 3-level
 * partition paths {@code region/country/city}.
 */
public record Trip(
    String uuid,
    String driver,
    String riderId,
    String riderName,
    long ts,
    double fare,
    int passengers,
    boolean paid,
    LocalDate rideDate,
    Instant pickupTime,
    String notes,
    String region,
    String country,
    String city) {

  public static final StructType RIDER = new StructType(new StructField[] {
      field("id", DataTypes.StringType, false),
      field("name", DataTypes.StringType, true)});

  public static final StructType SCHEMA = new StructType(new StructField[] {
      field("uuid", DataTypes.StringType, false),
      field("driver", DataTypes.StringType, false),
      field("rider", RIDER, false),
      field("ts", DataTypes.LongType, false),
      field("fare", DataTypes.DoubleType, false),
      field("passengers", DataTypes.IntegerType, false),
      field("is_paid", DataTypes.BooleanType, false),
      field("ride_date", DataTypes.DateType, false),
      field("pickup_time", DataTypes.TimestampType, false),
      field("notes", DataTypes.StringType, true),
      field("region", DataTypes.StringType, false),
      field("country", DataTypes.StringType, false),
      field("city", DataTypes.StringType, false)});

  public static final List<String> PARTITION_FIELDS = List.of("region", "country", "city");

  private static StructField field(String name, org.apache.spark.sql.types.DataType type, boolean nullable) {
    return new StructField(name, type, nullable, Metadata.empty());
  }

  /** The partition path as Hudi writes it, plain or hive-style. */
  public String partitionPath(boolean hiveStyle) {
    return hiveStyle
        ? "region=" + region + "/country=" + country + "/city=" + city
        : region + "/" + country + "/" + city;
  }

  public Trip withTs(long newTs) {
    return new Trip(uuid, driver, riderId, riderName, newTs, fare, passengers, paid, rideDate, pickupTime,
        notes, region, country, city);
  }

  public Trip withValues(long newTs, double newFare, int newPassengers, boolean newPaid, String newNotes) {
    return new Trip(uuid, driver, riderId, riderName, newTs, newFare, newPassengers, newPaid, rideDate,
        pickupTime, newNotes, region, country, city);
  }

  public Row toRow() {
    return RowFactory.create(uuid, driver, RowFactory.create(riderId, riderName), ts, fare, passengers, paid,
        Date.valueOf(rideDate), Timestamp.from(pickupTime), notes, region, country, city);
  }
}
