package io.riverbed.it.scenario;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** Deterministic trips from a seeded {@link Random}. */
public final class TripGenerator {

  /** Partitions as {region, country, city}. */
  public static final List<String[]> PARTITIONS = List.of(
      new String[] {"americas", "united_states", "san_francisco"},
      new String[] {"americas", "brazil", "sao_paulo"},
      new String[] {"asia", "india", "chennai"},
      new String[] {"europe", "france", "paris"});

  private static final String[] NAMES = {"ana", "bo", "chen", "dara", "eli", "femi", "gus", "hana"};

  private final Random random;
  private int serial;

  public TripGenerator(long seed) {
    this.random = new Random(seed);
  }

  public Random random() {
    return random;
  }

  /** {@code count} new trips with fresh keys, spread over {@code partitions}, ts in [tsFrom, tsFrom+tsSpan). */
  public List<Trip> newTrips(int count, List<String[]> partitions, long tsFrom, long tsSpan) {
    var trips = new ArrayList<Trip>(count);
    for (int i = 0; i < count; i++) {
      String[] p = partitions.get(random.nextInt(partitions.size()));
      trips.add(newTrip(p, tsFrom + (long) (random.nextDouble() * tsSpan)));
    }
    return trips;
  }

  public List<Trip> newTrips(int count, long tsFrom, long tsSpan) {
    return newTrips(count, PARTITIONS, tsFrom, tsSpan);
  }

  private Trip newTrip(String[] p, long ts) {
    int n = serial++;
    var uuid = new UUID(random.nextLong(), random.nextLong()).toString();
    String driver = "driver-" + (char) ('a' + random.nextInt(6));
    String riderId = String.format("rider-%06d", n);
    String riderName = random.nextInt(10) == 0 ? null : NAMES[random.nextInt(NAMES.length)];
    LocalDate date = LocalDate.of(2024, 1, 1).plusDays(random.nextInt(366));
    long pickupMicros = 1_704_067_200_000_000L + (long) (random.nextDouble() * 31_536_000_000_000L);
    Instant pickup = Instant.ofEpochSecond(pickupMicros / 1_000_000, (pickupMicros % 1_000_000) * 1_000);
    return new Trip(uuid, driver, riderId, riderName, ts, fare(), 1 + random.nextInt(4), random.nextBoolean(),
        date, pickup, random.nextInt(4) == 0 ? null : "note-" + random.nextInt(1000), p[0], p[1], p[2]);
  }

  /** A new version of {@code trip} with ts {@code newTs} and new payload values. */
  public Trip update(Trip trip, long newTs) {
    return trip.withValues(newTs, fare(), 1 + random.nextInt(4), random.nextBoolean(),
        random.nextInt(4) == 0 ? null : "upd-" + random.nextInt(1000));
  }

  private double fare() {
    return Math.round(random.nextDouble() * 10_000) / 100.0;
  }
}
