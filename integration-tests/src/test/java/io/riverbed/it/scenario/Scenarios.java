package io.riverbed.it.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The standard scenario tables, each written once per JVM (lazily, on first use) under the test
 * temp folder and shared by every test that asks for it.
 */
public final class Scenarios {

  /** Insert-overwrite target partition of the MOR scenario. */
  public static final String[] OVERWRITTEN_PARTITION = {"asia", "india", "chennai"};

  private Scenarios() {
  }

  private static final class Root {
    static final Path DIR = create();

    private static Path create() {
      try {
        return Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "scenarios-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static final class Mor {
    static final ScenarioTable TABLE = writeMorTrips(Root.DIR.resolve("mor_trips"));
  }

  private static final class Cow {
    static final ScenarioTable TABLE = writeCowComposite(Root.DIR.resolve("cow_composite"));
  }

  private static final class Nested {
    static final ScenarioTable TABLE = writeNestedKey(Root.DIR.resolve("mor_nested_key"));
  }

  /**
   * MOR, 2,150 records over 4 three-level partitions, metadata table off, event-time ordering:
   * bulk_insert, insert, upsert (30% of keys; some with smaller or equal ts), hard delete,
   * insert_overwrite of one partition, upsert with inline compaction, then an update-only upsert
   * that leaves log files after the compaction.
   */
  public static ScenarioTable morTrips() {
    return Mor.TABLE;
  }

  /** COW, composite key {@code uuid,driver}, hive-style partitioning, metadata table on (default). */
  public static ScenarioTable cowComposite() {
    return Cow.TABLE;
  }

  /** MOR, nested record key {@code rider.id}, metadata table off. */
  public static ScenarioTable nestedKey() {
    return Nested.TABLE;
  }

  static ScenarioTable writeMorTrips(Path path) {
    var spec = new TableSpec("mor_trips", TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false,
        Map.of("hoodie.metadata.enable", "false"));
    var gen = new TripGenerator(20_240_601L);
    Random random = gen.random();
    var writer = new ScenarioWriter(path, spec);

    writer.bulkInsert(gen.newTrips(1_500, 1_000, 1_000));
    writer.insert(gen.newTrips(600, 1_000, 1_000));

    // 30% of keys updated: mostly newer ts, 20% older ts (must lose), some equal ts (later write wins).
    var live = liveTrips(writer);
    Collections.shuffle(live, random);
    var updates = new ArrayList<Trip>();
    for (Trip t : live.subList(0, live.size() * 3 / 10)) {
      int dice = random.nextInt(10);
      long ts = dice < 2 ? t.ts() - 1 - random.nextInt(500) : dice < 3 ? t.ts() : t.ts() + 1 + random.nextInt(2_000);
      updates.add(gen.update(t, ts));
    }
    updates.addAll(gen.newTrips(50, 2_000, 1_000));
    Collections.shuffle(updates, random);
    writer.upsert(updates);

    live = liveTrips(writer);
    Collections.shuffle(live, random);
    var deletes = new ArrayList<>(live.subList(0, 100));
    deletes.addAll(gen.newTrips(5, 1_000, 1_000)); // keys that never existed
    writer.delete(deletes);

    live = liveTrips(writer);
    var overwrite = new ArrayList<Trip>();
    live.stream().filter(t -> t.city().equals(OVERWRITTEN_PARTITION[2])).limit(40)
        .forEach(t -> overwrite.add(gen.update(t, t.ts() - 100))); // smaller ts: overwrite still replaces
    overwrite.addAll(gen.newTrips(40, List.<String[]>of(OVERWRITTEN_PARTITION), 1_000, 3_000));
    writer.insertOverwrite(overwrite);

    live = liveTrips(writer);
    Collections.shuffle(live, random);
    var beforeCompaction = new ArrayList<Trip>();
    for (Trip t : live.subList(0, 200)) {
      beforeCompaction.add(gen.update(t, t.ts() + (random.nextInt(5) == 0 ? -1 : 1) * (1 + random.nextInt(500))));
    }
    beforeCompaction.addAll(gen.newTrips(30, 3_000, 1_000));
    writer.upsert(beforeCompaction, Map.of(
        "hoodie.compact.inline", "true",
        "hoodie.compact.inline.max.delta.commits", "1"));

    live = liveTrips(writer);
    Collections.shuffle(live, random);
    var afterCompaction = new ArrayList<Trip>();
    for (Trip t : live.subList(0, 150)) {
      afterCompaction.add(gen.update(t, t.ts() + (random.nextInt(5) == 0 ? -1 : 1) * (1 + random.nextInt(500))));
    }
    writer.upsert(afterCompaction);
    return writer.finish();
  }

  static ScenarioTable writeCowComposite(Path path) {
    var spec = new TableSpec("cow_composite", TableSpec.TableType.COPY_ON_WRITE, List.of("uuid", "driver"), true,
        Map.of());
    var gen = new TripGenerator(7L);
    var writer = new ScenarioWriter(path, spec);
    writer.insert(gen.newTrips(300, 1_000, 1_000));
    var live = liveTrips(writer);
    Collections.shuffle(live, gen.random());
    var updates = new ArrayList<Trip>();
    for (Trip t : live.subList(0, 90)) {
      updates.add(gen.update(t, t.ts() + (gen.random().nextInt(4) == 0 ? -5 : 5)));
    }
    updates.addAll(gen.newTrips(20, 2_000, 1_000));
    writer.upsert(updates);
    live = liveTrips(writer);
    Collections.shuffle(live, gen.random());
    writer.delete(new ArrayList<>(live.subList(0, 25)));
    return writer.finish();
  }

  static ScenarioTable writeNestedKey(Path path) {
    var spec = new TableSpec("mor_nested_key", TableSpec.TableType.MERGE_ON_READ, List.of("rider.id"), false,
        Map.of("hoodie.metadata.enable", "false"));
    var gen = new TripGenerator(11L);
    var writer = new ScenarioWriter(path, spec);
    writer.insert(gen.newTrips(200, 1_000, 1_000));
    var live = liveTrips(writer);
    Collections.shuffle(live, gen.random());
    var updates = new ArrayList<Trip>();
    for (Trip t : live.subList(0, 60)) {
      updates.add(gen.update(t, t.ts() + 10));
    }
    writer.upsert(updates);
    return writer.finish();
  }

  private static List<Trip> liveTrips(ScenarioWriter writer) {
    var trips = new ArrayList<Trip>();
    writer.model().state().values().forEach(e -> trips.add(e.trip()));
    trips.sort(java.util.Comparator.comparing(Trip::uuid)); // state() order is not stable
    return trips;
  }
}
