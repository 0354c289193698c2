package io.riverbed.it.oracle;

import io.riverbed.it.oracle.NextHudiOracle.WriteStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The five writes Hudi 1.0.2 makes into each version 8 test table ({@link NextHudiOracle#write}):
 * insert of 20 keys; upsert of updates (one losing on {@code ts}) and new keys; delete of three;
 * upsert (with an inline compaction after it when asked); upsert into the compacted slices (another
 * update losing on {@code ts}). Record key {@code id}, ordering field {@code ts}, partition {@code part}.
 */
public final class Version8Scenario {

  /** The tables' schema, as Spark DDL. */
  public static final String SCHEMA = "id STRING, name STRING, price DOUBLE, ts LONG, part STRING";

  private static final Pattern COMPLETED = Pattern.compile("^(\\d+)_(\\d+)\\.(commit|deltacommit|replacecommit)$");

  private Version8Scenario() {
  }

  /** A completed write instant of a layout-2 timeline: requested time, completion time, action. */
  public record CompletedWrite(String requested, String completion, String action) {
  }

  /** Completed writes of a layout-2 timeline ({@code .hoodie/timeline/}), in requested-time order. */
  public static List<CompletedWrite> completedWrites(Path table) {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/timeline"))) {
      return files.map(p -> COMPLETED.matcher(p.getFileName().toString()))
          .filter(Matcher::matches)
          .map(m -> new CompletedWrite(m.group(1), m.group(2), m.group(3)))
          .sorted(Comparator.comparing(CompletedWrite::requested))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the timeline of " + table, e);
    }
  }

  /** The five writes, each with {@code common} options on top of its own; rows go to files in {@code data}. */
  public static List<WriteStep> steps(Path data, boolean compact, Map<String, String> common) throws IOException {
    var steps = new ArrayList<WriteStep>();
    steps.add(step(data, "insert", rows(IntStream.rangeClosed(1, 20), "a", 1), common));
    var upsert = new ArrayList<>(rows(IntStream.rangeClosed(1, 5), "b", 2));
    upsert.addAll(rows(IntStream.of(6), "loses", 0));
    upsert.addAll(rows(IntStream.rangeClosed(21, 25), "b", 2));
    steps.add(step(data, "upsert", upsert, common));
    steps.add(step(data, "delete", rows(IntStream.of(7, 8, 22), "d", 3), common));
    var compaction = new HashMap<>(common);
    if (compact) {
      compaction.put("hoodie.compact.inline", "true");
      compaction.put("hoodie.compact.inline.max.delta.commits", "4");
    }
    steps.add(step(data, "upsert", rows(IntStream.rangeClosed(9, 12), "c", 3), compaction));
    var after = new ArrayList<>(rows(IntStream.of(1, 13, 26), "e", 4));
    after.addAll(rows(IntStream.of(2), "loses", 1));
    steps.add(step(data, "upsert", after, common));
    return steps;
  }

  /** JSON lines of the keys {@code ids} ({@code k01}...), named {@code <name><id>}, ordering value {@code ts}. */
  public static List<String> rows(IntStream ids, String name, long ts) {
    return ids.mapToObj(i -> String.format(
        "{\"id\":\"k%02d\",\"name\":\"%s%d\",\"price\":%d.5,\"ts\":%d,\"part\":\"p%d\"}",
        i, name, i, i * 10, ts, i % 3)).toList();
  }

  private static WriteStep step(Path data, String operation, List<String> lines, Map<String, String> options)
      throws IOException {
    Path file = Files.createTempFile(data, operation + "-", ".json");
    Files.write(file, lines);
    return new WriteStep(operation, file, options);
  }
}
