package io.riverbed.format.consumer;

import io.riverbed.format.TableException;
import io.riverbed.format.file.OnceWrittenFile;
import io.riverbed.format.table.Table;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumers registered on a table (Apache Paimon's {@code ConsumerManager}; Hudi has none): one
 * small file per consumer under {@code .hoodie/.aux/riverbed/consumers/}, holding its id, its
 * position and when that was recorded.
 *
 * <p>A consumer's file is never rewritten in place: each recorded position is a new file
 * {@code <id>.<version>} (version 1, 2, ...), created whole with {@link OnceWrittenFile} (a single
 * PUT on object stores, a temporary file renamed into place elsewhere, never over an existing
 * file), after which the older versions are deleted. A reader takes the highest version of each id,
 * so it sees the previous position or the new one, never a partial file and never none; a crash
 * between the two steps leaves both files, and the next record deletes the older. Two recorders of
 * the same consumer at once cannot both write the same version; the one that loses lists again and
 * writes the next, so the last one wins.
 *
 * <p>{@code ConsumerRegistry.of(table).advance("etl", t)} registers or moves consumer {@code etl};
 * {@link #list} is what cleaning and archival read ({@link ConsumerPin}).
 */
public final class ConsumerRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(ConsumerRegistry.class);
  /** The folder of the consumer files, relative to {@code .hoodie}. */
  public static final String FOLDER = ".aux/riverbed/consumers";
  /** Listings and writes retried when a concurrent recorder replaced a file in between. */
  private static final int ATTEMPTS = 16;

  private final Table table;
  private final Path folder;
  private final Clock clock;

  private ConsumerRegistry(Table table, Clock clock) {
    this.table = table;
    this.folder = new Path(table.metaPath(), FOLDER);
    this.clock = clock;
  }

  /** The registry of {@code table}; positions are recorded with the system clock. */
  public static ConsumerRegistry of(Table table) {
    return of(table, Clock.systemUTC());
  }

  /** The registry of {@code table}; {@code clock} says when a position is recorded. */
  public static ConsumerRegistry of(Table table, Clock clock) {
    return new ConsumerRegistry(Objects.requireNonNull(table, "table"), Objects.requireNonNull(clock, "clock"));
  }

  /** Where the consumer files are. */
  public Path folder() {
    return folder;
  }

  /** Every registered consumer, expired ones included, by id. */
  public List<Consumer> list() {
    for (int attempt = 1; ; attempt++) {
      List<Consumer> out = new ArrayList<>();
      boolean replaced = false;
      for (Map.Entry<String, TreeMap<Long, Path>> e : versions().entrySet()) {
        Optional<Consumer> c = read(e.getKey(), e.getValue().lastEntry().getKey(), e.getValue().lastEntry().getValue());
        if (c.isEmpty()) {
          replaced = true;
          break;
        }
        out.add(c.get());
      }
      if (!replaced) {
        return out;
      }
      checkAttempts(attempt, "list the consumers");
    }
  }

  /** The consumer {@code id}, if it is registered. */
  public Optional<Consumer> get(String id) {
    Consumer.checkId(id);
    for (int attempt = 1; ; attempt++) {
      TreeMap<Long, Path> versions = versions().get(id);
      if (versions == null) {
        return Optional.empty();
      }
      Optional<Consumer> c = read(id, versions.lastKey(), versions.lastEntry().getValue());
      if (c.isPresent()) {
        return c;
      }
      checkAttempts(attempt, "read consumer " + id);
    }
  }

  /**
   * Registers a new consumer at {@code position}.
   *
   * @throws TableException if consumer {@code id} is registered already
   */
  public Consumer register(String id, String position) {
    Consumer.checkId(id);
    Consumer.checkPosition(id, position);
    Optional<Consumer> existing = get(id);
    java.time.Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS); // as the file keeps it
    if (existing.isPresent() || !create(id, 1, position, now)) {
      throw new TableException("consumer " + id + " of table " + table.basePath() + " is registered already"
          + existing.map(c -> " at " + c.position()).orElse(""));
    }
    LOG.info("Consumer {} of table {} registered at {}", id, table.basePath(), position);
    return new Consumer(id, position, now, 1);
  }

  /**
   * Records that consumer {@code id} has read up to {@code position} (later or earlier than before),
   * registering it if it is new. Its expiry starts again from now, also when the position is the
   * same.
   *
   * @return the consumer as recorded
   */
  public Consumer advance(String id, String position) {
    Consumer.checkId(id);
    Consumer.checkPosition(id, position);
    for (int attempt = 1; ; attempt++) {
      TreeMap<Long, Path> versions = versions().getOrDefault(id, new TreeMap<>());
      long next = versions.isEmpty() ? 1 : versions.lastKey() + 1;
      java.time.Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS); // as the file keeps it
      if (create(id, next, position, now)) {
        versions.values().forEach(this::deleteOlder);
        LOG.info("Consumer {} of table {} {} {}", id, table.basePath(), next == 1 ? "registered at" : "advanced to",
            position);
        return new Consumer(id, position, now, next);
      }
      checkAttempts(attempt, "record consumer " + id);
    }
  }

  /**
   * Removes consumer {@code id}: it no longer holds anything back. A recorder of the same consumer
   * running at the same time may register it again.
   *
   * @return false if it was not registered
   */
  public boolean remove(String id) {
    Consumer.checkId(id);
    TreeMap<Long, Path> versions = versions().get(id);
    if (versions == null) {
      return false;
    }
    versions.values().forEach(this::deleteOlder);
    LOG.info("Consumer {} of table {} removed", id, table.basePath());
    return true;
  }

  /** Per consumer id, its files by version, from one listing; names that are not {@code <id>.<version>} are skipped. */
  private TreeMap<String, TreeMap<Long, Path>> versions() {
    FileStatus[] files;
    try {
      files = table.fs().listStatus(folder);
    } catch (FileNotFoundException e) {
      return new TreeMap<>();
    } catch (IOException e) {
      throw new TableException("cannot list the consumers " + folder + " of table " + table.basePath(), e);
    }
    TreeMap<String, TreeMap<Long, Path>> out = new TreeMap<>();
    for (FileStatus f : files) {
      String name = f.getPath().getName();
      int dot = name.lastIndexOf('.');
      if (f.isDirectory() || dot <= 0 || !name.substring(dot + 1).matches("\\d{1,18}")) {
        LOG.debug("Not a consumer file, skipped: {}", f.getPath());
        continue;
      }
      String id = name.substring(0, dot);
      try {
        Consumer.checkId(id);
      } catch (IllegalArgumentException e) {
        LOG.debug("Not a consumer file, skipped: {}", f.getPath());
        continue;
      }
      out.computeIfAbsent(id, k -> new TreeMap<>()).put(Long.parseLong(name.substring(dot + 1)), f.getPath());
    }
    return out;
  }

  /** The consumer in {@code path}; empty when the file is gone (a newer version replaced it since the listing). */
  private Optional<Consumer> read(String id, long version, Path path) {
    byte[] bytes;
    try (InputStream in = table.fs().open(path)) {
      bytes = in.readAllBytes();
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new TableException("cannot read consumer file " + path + " of table " + table.basePath(), e);
    }
    Properties p = new Properties();
    try {
      p.load(new ByteArrayInputStream(bytes));
      String position = p.getProperty("position");
      String at = p.getProperty("advanced.at.millis");
      if (!id.equals(p.getProperty("id")) || position == null || at == null) {
        throw new IllegalArgumentException("it names consumer " + p.getProperty("id") + ", position " + position
            + ", advanced at " + at);
      }
      return Optional.of(new Consumer(id, position, java.time.Instant.ofEpochMilli(Long.parseLong(at)), version));
    } catch (IOException | IllegalArgumentException e) {
      throw new TableException("damaged consumer file " + path + " of table " + table.basePath() + " ("
          + e.getMessage() + "); remove consumer " + id + " (riverbed-admin consumer remove) and register it again", e);
    }
  }

  /** Writes version {@code version} of the consumer's file; false if that version exists already. */
  private boolean create(String id, long version, String position, java.time.Instant at) {
    String text = "id=" + id + "\nposition=" + position + "\nadvanced.at.millis=" + at.toEpochMilli() + "\n";
    Path target = new Path(folder, id + "." + version);
    try {
      table.fs().mkdirs(folder);
      return OnceWrittenFile.create(table.fs(), target, text.getBytes(StandardCharsets.ISO_8859_1), table.tempPath());
    } catch (IOException e) {
      throw new TableException("cannot write consumer file " + target + " of table " + table.basePath(), e);
    }
  }

  private void deleteOlder(Path path) {
    try {
      table.fs().delete(path, false);
    } catch (FileNotFoundException e) {
      // deleted by a concurrent recorder of the same consumer
    } catch (IOException e) {
      throw new TableException("cannot delete consumer file " + path + " of table " + table.basePath(), e);
    }
  }

  private void checkAttempts(int attempt, String what) {
    if (attempt >= ATTEMPTS) {
      throw new TableException("cannot " + what + " of table " + table.basePath() + ": its files in " + folder
          + " were replaced " + ATTEMPTS + " times while reading them; does a recorder run in a loop?");
    }
  }
}
