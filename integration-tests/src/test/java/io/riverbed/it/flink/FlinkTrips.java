package io.riverbed.it.flink;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.riverbed.it.oracle.Rows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A deterministic trips-like change stream for the Flink write job, as JSON lines, with the
 * expected table it must leave behind (last writer wins by {@code ts}, ties to the later record,
 * deletes remove).
 *
 * <p>Records: key {@code uuid}, 3-level partition path {@code region/country/city} (a key never
 * changes partition), ordering field {@code ts}, a nested {@code rider}, a nullable {@code tip}.
 * About 30% of the changes are updates of a key seen before whose {@code ts} is shuffled around
 * the key's current one (so some updates lose), about 2% are deletes ({@code _hoodie_is_deleted =
 * true}), the rest inserts of new keys. A delete is a key's last change and carries a {@code ts}
 * above every earlier one of that key, so it wins whichever commit or batch its predecessors land
 * in (an update after a delete with a smaller ts would win or lose depending on the batch
 * boundaries Hudi's payloads merge along, which a test cannot fix). A few deletes name keys that
 * were never written.
 */
final class FlinkTrips {
  static final List<String> PARTITION_FIELDS = List.of("region", "country", "city");
  private static final List<String[]> PLACES = List.of(
      new String[] {"americas", "brazil", "sao_paulo"},
      new String[] {"americas", "united_states", "san_francisco"},
      new String[] {"americas", "united_states", "new_york"},
      new String[] {"asia", "india", "chennai"},
      new String[] {"asia", "japan", "tokyo"},
      new String[] {"europe", "france", "paris"});
  private static final ObjectMapper JSON = new ObjectMapper();

  static final String AVRO_SCHEMA = """
      {"type": "record", "name": "trip", "namespace": "io.riverbed.it.flink", "fields": [
        {"name": "uuid", "type": "string"},
        {"name": "ts", "type": "long"},
        {"name": "driver", "type": "string"},
        {"name": "rider", "type": {"type": "record", "name": "rider", "fields": [
          {"name": "id", "type": "string"}, {"name": "name", "type": ["null", "string"], "default": null}]}},
        {"name": "fare", "type": "double"},
        {"name": "tip", "type": ["null", "double"], "default": null},
        {"name": "passengers", "type": "int"},
        {"name": "region", "type": "string"},
        {"name": "country", "type": "string"},
        {"name": "city", "type": "string"},
        {"name": "_hoodie_is_deleted", "type": "boolean", "default": false}
      ]}""";

  /** The changes, in stream order, as JSON objects. */
  private final List<ObjectNode> changes;

  private FlinkTrips(List<ObjectNode> changes) {
    this.changes = List.copyOf(changes);
  }

  /** {@code count} changes from {@code seed}. */
  static FlinkTrips generate(long seed, int count) {
    Random random = new Random(seed);
    List<ObjectNode> out = new ArrayList<>(count);
    Map<String, ObjectNode> live = new LinkedHashMap<>();
    List<String> liveKeys = new ArrayList<>();
    Map<String, Long> maxTs = new HashMap<>();
    int next = 0;
    int unknownDeletes = 0;
    for (int i = 0; i < count; i++) {
      double dice = random.nextDouble();
      if (dice < 0.02 && liveKeys.size() > 10) {
        ObjectNode delete;
        if (unknownDeletes < 5 && random.nextInt(10) == 0) {
          String[] place = PLACES.get(random.nextInt(PLACES.size()));
          delete = trip(random, "ghost-" + unknownDeletes++, place, 1 + random.nextInt(100_000));
        } else {
          String key = liveKeys.remove(random.nextInt(liveKeys.size()));
          delete = live.remove(key).deepCopy();
          delete.put("ts", maxTs.get(key) + 1 + random.nextInt(50));
        }
        delete.put("_hoodie_is_deleted", true);
        out.add(delete);
      } else if (dice < 0.32 && !liveKeys.isEmpty()) {
        String key = liveKeys.get(random.nextInt(liveKeys.size()));
        ObjectNode current = live.get(key);
        String[] place = {current.get("region").asText(), current.get("country").asText(), current.get("city").asText()};
        long ts = Math.max(1, current.get("ts").asLong() + random.nextInt(6_001) - 3_000);
        ObjectNode update = trip(random, key, place, ts);
        maxTs.merge(key, ts, Math::max);
        if (ts >= current.get("ts").asLong()) {
          live.put(key, update);
        }
        out.add(update);
      } else {
        String key = String.format("trip-%06d", next++);
        long ts = 1 + random.nextInt(100_000);
        ObjectNode insert = trip(random, key, PLACES.get(random.nextInt(PLACES.size())), ts);
        live.put(key, insert);
        liveKeys.add(key);
        maxTs.put(key, ts);
        out.add(insert);
      }
    }
    return new FlinkTrips(out);
  }

  /**
   * A steady stream over a fixed set of keys, as a long-running job sees it once its table has
   * filled: {@code keys} inserts (3-level partitions, a key never moves), then {@code changes}
   * changes of those keys, chosen uniformly so that every file group sees some in every commit:
   * mostly updates with a {@code ts} above the key's every earlier one; 10% late updates with a
   * {@code ts} below the key's current one (the writer's index drops them as stale), a few of them
   * of deleted keys (older than the delete); 3% deletes ({@code ts} above every earlier one) and
   * 3% re-inserts of deleted keys ({@code ts} above the delete). A key's ordering values never tie.
   */
  static FlinkTrips steady(long seed, int keys, int changes) {
    Random random = new Random(seed);
    List<ObjectNode> out = new ArrayList<>(keys + changes);
    Map<String, ObjectNode> latest = new LinkedHashMap<>();
    Map<String, Long> maxTs = new HashMap<>();
    List<String> live = new ArrayList<>();
    List<String> deleted = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      String key = String.format("trip-%06d", i);
      ObjectNode insert = trip(random, key, PLACES.get(random.nextInt(PLACES.size())), 10_000 + random.nextInt(10_000));
      latest.put(key, insert);
      maxTs.put(key, insert.get("ts").asLong());
      live.add(key);
      out.add(insert);
    }
    for (int i = 0; i < changes; i++) {
      double dice = random.nextDouble();
      boolean late = dice < 0.10;
      boolean lateAfterDelete = late && dice < 0.01 && !deleted.isEmpty();
      String key;
      if (lateAfterDelete) {
        key = deleted.get(random.nextInt(deleted.size()));
      } else if (dice > 0.97 && !deleted.isEmpty()) {
        key = deleted.remove(random.nextInt(deleted.size()));
        live.add(key);
      } else {
        key = live.get(random.nextInt(live.size()));
      }
      ObjectNode current = latest.get(key);
      String[] place = {current.get("region").asText(), current.get("country").asText(), current.get("city").asText()};
      long max = maxTs.get(key);
      long ts = late ? max - 1 - random.nextInt((int) Math.min(3_000, max - 1)) : max + 1 + random.nextInt(1_000);
      ObjectNode change = trip(random, key, place, ts);
      if (!late && !lateAfterDelete && dice > 0.94 && dice <= 0.97 && live.size() > 1) {
        live.remove(key);
        deleted.add(key);
        change.put("_hoodie_is_deleted", true);
      }
      if (!late) {
        maxTs.put(key, ts);
        latest.put(key, change);
      }
      out.add(change);
    }
    return new FlinkTrips(out);
  }

  /**
   * Upserts only, over a fixed set of keys: {@code keys} inserts, then {@code changes} updates of
   * keys chosen uniformly; the {@code ts} of the i-th change is {@code 2(i+1)}, so ordering values
   * rise along the stream, never tie and are even (another writer can take the odd ones).
   */
  static FlinkTrips upserts(long seed, int keys, int changes) {
    Random random = new Random(seed);
    List<ObjectNode> out = new ArrayList<>(keys + changes);
    List<String[]> places = new ArrayList<>(keys);
    for (int i = 0; i < keys + changes; i++) {
      int key = i < keys ? i : random.nextInt(keys);
      if (i < keys) {
        places.add(PLACES.get(random.nextInt(PLACES.size())));
      }
      out.add(trip(random, String.format("trip-%06d", key), places.get(key), 2L * (i + 1)));
    }
    return new FlinkTrips(out);
  }

  /** The changes, in stream order (copies). */
  List<ObjectNode> changes() {
    return changes.stream().map(ObjectNode::deepCopy).toList();
  }

  /**
   * Writes the changes as JSON-lines files {@code chunk-<i>.jsonl}, one per chunk: the first
   * {@code first} changes, then {@code per} at a time; returns the number of changes after each chunk.
   */
  List<Integer> writeChunks(Path dir, int first, int per) {
    List<Integer> ends = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      List<String> lines = lines();
      for (int from = 0, c = 0; from < lines.size(); c++) {
        int to = Math.min(lines.size(), c == 0 ? first : from + per);
        Files.write(dir.resolve(String.format("chunk-%05d.jsonl", c)), lines.subList(from, to), StandardCharsets.UTF_8);
        ends.add(to);
        from = to;
      }
      return ends;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the chunks to " + dir, e);
    }
  }

  private static ObjectNode trip(Random random, String key, String[] place, long ts) {
    ObjectNode t = JSON.createObjectNode();
    t.put("uuid", key);
    t.put("ts", ts);
    t.put("driver", "driver-" + random.nextInt(500));
    ObjectNode rider = t.putObject("rider");
    rider.put("id", "rider-" + random.nextInt(5_000));
    if (random.nextInt(5) == 0) {
      rider.putNull("name");
    } else {
      rider.put("name", "name-" + random.nextInt(1_000));
    }
    t.put("fare", (5_00 + random.nextInt(200_00)) / 100.0);
    if (random.nextInt(3) == 0) {
      t.putNull("tip");
    } else {
      t.put("tip", random.nextInt(20_00) / 100.0);
    }
    t.put("passengers", 1 + random.nextInt(4));
    t.put("region", place[0]);
    t.put("country", place[1]);
    t.put("city", place[2]);
    t.put("_hoodie_is_deleted", false);
    return t;
  }

  int size() {
    return changes.size();
  }

  long deletes() {
    return changes.stream().filter(c -> c.get("_hoodie_is_deleted").asBoolean()).count();
  }

  /** Writes the changes as {@code waves} consecutive JSON-lines files {@code wave-<i>.jsonl}; returns them in order. */
  List<Path> writeWaves(Path dir, int waves) {
    List<Path> files = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      int per = (changes.size() + waves - 1) / waves;
      for (int w = 0; w < waves; w++) {
        List<String> lines = new ArrayList<>();
        for (ObjectNode c : changes.subList(Math.min(changes.size(), w * per), Math.min(changes.size(), (w + 1) * per))) {
          lines.add(JSON.writeValueAsString(c));
        }
        files.add(Files.write(dir.resolve("wave-" + w + ".jsonl"), lines, StandardCharsets.UTF_8));
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the waves to " + dir, e);
    }
  }

  /** The JSON text of every change, in order. */
  List<String> lines() {
    return changes.stream().map(c -> {
      try {
        return JSON.writeValueAsString(c);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).toList();
  }

  static Path writeSchema(Path file) {
    try {
      Files.createDirectories(file.getParent());
      return Files.writeString(file, AVRO_SCHEMA, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The table after the first {@code prefix} changes: every live key's winning record with its
   * {@code _hoodie_record_key} and {@code _hoodie_partition_path}.
   */
  Rows expected(int prefix) {
    Map<String, ObjectNode> state = new LinkedHashMap<>();
    for (ObjectNode c : changes.subList(0, prefix)) {
      String key = c.get("uuid").asText();
      ObjectNode current = state.get(key);
      if (current != null && current.get("ts").asLong() > c.get("ts").asLong()) {
        continue;
      }
      state.put(key, c);
    }
    List<ObjectNode> rows = new ArrayList<>();
    for (ObjectNode c : state.values()) {
      if (c.get("_hoodie_is_deleted").asBoolean()) {
        continue;
      }
      ObjectNode row = c.deepCopy();
      row.put("_hoodie_record_key", c.get("uuid").asText());
      row.put("_hoodie_partition_path", c.get("region").asText() + "/" + c.get("country").asText() + "/" + c.get("city").asText());
      rows.add(row);
    }
    return Rows.ofNodes(rows);
  }

  Rows expected() {
    return expected(changes.size());
  }

  /**
   * The job flags that write {@link #generate(long, int) generated} trips from one JSON-lines file
   * (written, with its schema, under {@code dir}) into {@code table}, committing every {@code interval}.
   */
  List<String> fileJobFlags(Path dir, Path table, String tableType, String interval) {
    return jobFlags(writeWaves(dir.resolve("input"), 1).get(0), writeSchema(dir.resolve("trip.avsc")), table, tableType,
        interval);
  }

  /** The job flags that write the trips of one JSON-lines {@code input} (with {@code schema}) into {@code table}. */
  static List<String> jobFlags(Path input, Path schema, Path table, String tableType, String interval) {
    return List.of("--source", "file", "--input", input.toString(), "--schema", schema.toString(),
        "--table-path", table.toString(), "--table-name", "trips", "--table-type", tableType,
        "--record-key", "uuid", "--precombine", "ts", "--partition-path", String.join(",", PARTITION_FIELDS),
        "--checkpoint-interval", interval);
  }
}
