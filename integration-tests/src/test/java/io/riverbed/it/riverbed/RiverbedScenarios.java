package io.riverbed.it.riverbed;

import io.riverbed.it.scenario.ExpectedTable;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.TableSpec;
import io.riverbed.it.scenario.Trip;
import io.riverbed.it.scenario.TripGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Tables Riverbed's core writes (no engine), each written once per JVM, with their expected model. */
public final class RiverbedScenarios {
  private RiverbedScenarios() {}

  private static final class Root {
    static final Path DIR = create();

    private static Path create() {
      try {
        return Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "riverbed-written-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static final class Mor {
    static final ScenarioTable TABLE = writeMor(Root.DIR.resolve("rb_mor_trips"));
  }

  private static final class Cow {
    static final ScenarioTable TABLE = writeCow(Root.DIR.resolve("rb_cow_composite"));
  }

  /**
   * MOR, 2,100 records over 3-level partitions, event-time ordering: bulk insert into base files,
   * an upsert of 30% of keys (a fifth with smaller ts that must lose, some ties) plus new keys
   * (log-only file groups or small groups), a hard delete, another upsert, a compaction, and an
   * upsert that leaves logs on top of the compacted slices.
   */
  public static ScenarioTable mor() {
    return Mor.TABLE;
  }

  /** COW, composite key {@code uuid,driver}, hive-style partitions: insert, upsert, delete, upsert. */
  public static ScenarioTable cow() {
    return Cow.TABLE;
  }

  static ScenarioTable writeMor(Path path) {
    var spec = new TableSpec("rb_mor_trips", TableSpec.TableType.MERGE_ON_READ, List.of("uuid"), false, Map.of());
    var gen = new TripGenerator(20_251_129L);
    Random random = gen.random();
    var writer = new RiverbedScenarioWriter(path, spec);
    writer.bulkInsert(gen.newTrips(2_000, 1_000, 1_000));

    var updates = new ArrayList<Trip>();
    for (Trip t : shuffledLive(writer.model(), random).subList(0, 600)) {
      int dice = random.nextInt(10);
      long ts = dice < 2 ? t.ts() - 1 - random.nextInt(500) : dice < 3 ? t.ts() : t.ts() + 1 + random.nextInt(2_000);
      updates.add(gen.update(t, ts));
    }
    updates.addAll(gen.newTrips(100, 2_000, 1_000));
    Collections.shuffle(updates, random);
    writer.upsert(updates);

    var deletes = new ArrayList<>(shuffledLive(writer.model(), random).subList(0, 120));
    deletes.addAll(gen.newTrips(5, 1_000, 1_000));
    writer.delete(deletes);

    writer.upsert(someUpdates(gen, writer.model(), random, 250));
    writer.compact();
    writer.upsert(someUpdates(gen, writer.model(), random, 200));
    return writer.finish();
  }

  static ScenarioTable writeCow(Path path) {
    var spec = new TableSpec("rb_cow_composite", TableSpec.TableType.COPY_ON_WRITE, List.of("uuid", "driver"), true, Map.of());
    var gen = new TripGenerator(11L);
    Random random = gen.random();
    var writer = new RiverbedScenarioWriter(path, spec);
    writer.bulkInsert(gen.newTrips(600, 1_000, 1_000));
    var updates = someUpdates(gen, writer.model(), random, 150);
    updates.addAll(gen.newTrips(40, 2_000, 1_000));
    writer.upsert(updates);
    writer.delete(new ArrayList<>(shuffledLive(writer.model(), random).subList(0, 30)));
    writer.upsert(someUpdates(gen, writer.model(), random, 100));
    return writer.finish();
  }

  private static List<Trip> shuffledLive(ExpectedTable model, Random random) {
    var live = new ArrayList<>(model.state().values().stream().map(ExpectedTable.Entry::trip).toList());
    live.sort(java.util.Comparator.comparing(Trip::uuid));
    Collections.shuffle(live, random);
    return live;
  }

  /** Updates of {@code count} live keys, one in five with a smaller ts (it must lose). */
  static List<Trip> someUpdates(TripGenerator gen, ExpectedTable model, Random random, int count) {
    var out = new ArrayList<Trip>();
    for (Trip t : shuffledLive(model, random).subList(0, count)) {
      out.add(gen.update(t, t.ts() + (random.nextInt(5) == 0 ? -1 : 1) * (1 + random.nextInt(500))));
    }
    return out;
  }
}
