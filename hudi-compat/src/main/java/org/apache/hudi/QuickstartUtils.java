package org.apache.hudi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;

/**
 * Apache Hudi's quick start helpers ({@code QuickstartUtils.DataGenerator}, {@link #convertToStringList},
 * {@link #getQuickstartWriteConfigs}), so Hudi's trips walkthrough runs unchanged. The generator
 * follows Hudi 0.15's: the same schema, partition paths, seed (46474747) and order of draws, so a
 * session's first generator yields the same partition paths, rider/driver names and coordinates/fares
 * as Hudi's; record keys are random UUIDs and {@code ts} a random time in the last seven days, in Hudi
 * as here, so those differ on every run. One difference: Hudi shares one seeded random source between
 * all generators of a JVM, this generator owns its own, so a second generator in the same session starts
 * the sequence again where Hudi's would continue it.
 */
public final class QuickstartUtils {
  private QuickstartUtils() {}

  /**
   * One generated trip, as Hudi's generator builds it (its Avro schema {@code triprec}: ts, uuid, rider,
   * driver, begin_lat, begin_lon, end_lat, end_lon, fare) plus the partition path of its key.
   */
  public record Trip(long ts, String uuid, String rider, String driver, double beginLat, double beginLon,
      double endLat, double endLon, double fare, String partitionPath) {

    /** The record key, as Hudi's {@code HoodieRecord.getRecordKey()}. */
    public String getRecordKey() {
      return uuid;
    }

    /** The partition path, as Hudi's {@code HoodieRecord.getPartitionPath()}. */
    public String getPartitionPath() {
      return partitionPath;
    }

    /** The trip's fields as Avro prints a record ({@code {"ts": 1, "uuid": "...", ...}}), without the partition path. */
    String avroJson() {
      return "{\"ts\": " + ts + ", \"uuid\": " + quoted(uuid) + ", \"rider\": " + quoted(rider) + ", \"driver\": "
          + quoted(driver) + ", \"begin_lat\": " + beginLat + ", \"begin_lon\": " + beginLon + ", \"end_lat\": " + endLat
          + ", \"end_lon\": " + endLon + ", \"fare\": " + fare + "}";
    }
  }

  /** Generates trip inserts and updates against the keys it generated before, as Hudi's {@code DataGenerator}. */
  public static final class DataGenerator {
    private static final String[] DEFAULT_PARTITION_PATHS =
        {"americas/united_states/san_francisco", "americas/brazil/sao_paulo", "asia/india/chennai"};
    private static final long SEED = 46474747L;
    private static final long TIMESTAMP_RANGE_MILLIS = TimeUnit.DAYS.toMillis(7);

    private final Random rand = new Random(SEED);
    private final String[] partitionPaths;
    private final List<Trip> existingKeys = new ArrayList<>();

    public DataGenerator() {
      this(DEFAULT_PARTITION_PATHS);
    }

    public DataGenerator(String[] partitionPaths) {
      if (partitionPaths == null || partitionPaths.length == 0) {
        throw new IllegalArgumentException("DataGenerator: give at least one partition path");
      }
      this.partitionPaths = Arrays.copyOf(partitionPaths, partitionPaths.length);
    }

    public int getNumExistingKeys() {
      return existingKeys.size();
    }

    /** {@code n} new trips, each in a partition drawn from the generator's paths; their keys become updatable. */
    public List<Trip> generateInserts(Integer n) {
      String suffix = randomSuffix();
      List<Trip> trips = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        String partitionPath = partitionPaths[rand.nextInt(partitionPaths.length)];
        Trip trip = trip(UUID.randomUUID().toString(), partitionPath, suffix);
        existingKeys.add(trip);
        trips.add(trip);
      }
      return trips;
    }

    /** {@code n} updates of keys generated before, drawn at random (a key may come more than once). */
    public List<Trip> generateUpdates(Integer n) {
      requireKeys(1);
      String suffix = randomSuffix();
      List<Trip> trips = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        trips.add(update(existingKeys.get(rand.nextInt(existingKeys.size())), suffix));
      }
      return trips;
    }

    /** {@code n} updates of distinct keys generated before, in a shuffled order. */
    public List<Trip> generateUniqueUpdates(Integer n) {
      requireKeys(n);
      List<Trip> keys = new ArrayList<>(existingKeys);
      Collections.shuffle(keys);
      String suffix = randomSuffix();
      List<Trip> trips = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        trips.add(update(keys.get(i), suffix));
      }
      return trips;
    }

    /**
     * JSON deletes of the given rows, as Hudi's: rows of two columns are {@code (uuid, partitionpath)}
     * and get {@code "ts": "0.0"}; wider rows carry their own {@code ts}.
     */
    public List<String> generateDeletes(List<Row> rows) {
      List<String> deletes = new ArrayList<>(rows.size());
      for (Row row : rows) {
        Object ts = row.length() == 2 ? "0.0" : row.getAs("ts");
        deletes.add("{\"ts\": \"" + ts + "\",\"uuid\": \"" + row.getAs("uuid") + "\",\"partitionpath\": \""
            + row.getAs("partitionpath") + "\"}");
      }
      return deletes;
    }

    /** Forgets the generated keys. */
    public void close() {
      existingKeys.clear();
    }

    private void requireKeys(int n) {
      if (existingKeys.size() < n) {
        throw new IllegalStateException("Data must have been written before performing the update operation");
      }
    }

    private Trip update(Trip existing, String suffix) {
      return trip(existing.uuid(), existing.partitionPath(), suffix);
    }

    /** Draws the trip's values in Hudi's order: begin_lat, begin_lon, end_lat, end_lon, fare. */
    private Trip trip(String uuid, String partitionPath, String suffix) {
      long ts = System.currentTimeMillis() - (long) (ThreadLocalRandom.current().nextDouble() * TIMESTAMP_RANGE_MILLIS);
      double beginLat = rand.nextDouble();
      double beginLon = rand.nextDouble();
      double endLat = rand.nextDouble();
      double endLon = rand.nextDouble();
      double fare = rand.nextDouble() * 100;
      return new Trip(ts, uuid, "rider-" + suffix, "driver-" + suffix, beginLat, beginLon, endLat, endLon, fare,
          partitionPath);
    }

    /** Three digits, as Hudi's generator draws a batch's rider/driver suffix. */
    private String randomSuffix() {
      StringBuilder suffix = new StringBuilder(3);
      for (int i = 0; i < 3; i++) {
        suffix.append((char) ('0' + (int) (rand.nextFloat() * 10)));
      }
      return suffix.toString();
    }
  }

  /**
   * The trips as the JSON lines Hudi 0.15 makes of them, byte for byte: Hudi appends the partition
   * path after each closing brace of the printed payload, so every line carries
   * {@code "partitionpath"} twice, after the fields and after a stray closing brace. Spark's JSON
   * reader takes the first object of each line, which holds every field.
   */
  public static List<String> convertToStringList(List<Trip> records) {
    List<String> lines = new ArrayList<>(records.size());
    for (Trip trip : records) {
      String printed = trip.avroJson() + "}";
      lines.add(printed.replace("}", ", \"partitionpath\": \"" + trip.partitionPath() + "\"}"));
    }
    return lines;
  }

  /** The shuffle parallelism options Hudi's quick start sets (2 for insert, upsert, bulk_insert, delete). */
  public static Map<String, String> getQuickstartWriteConfigs() {
    Map<String, String> configs = new HashMap<>();
    configs.put("hoodie.insert.shuffle.parallelism", "2");
    configs.put("hoodie.upsert.shuffle.parallelism", "2");
    configs.put("hoodie.bulkinsert.shuffle.parallelism", "2");
    configs.put("hoodie.delete.shuffle.parallelism", "2");
    return configs;
  }

  private static String quoted(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
