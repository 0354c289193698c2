package io.riverbed.format.write.batch;

import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.Split;
import io.riverbed.format.query.SplitKeyReader;
import io.riverbed.format.table.Table;
import java.io.Serializable;
import java.util.Collection;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A simple index for batch upserts and deletes: where the keys of the partitions a batch touches
 * live, read from the latest committed file slices of those partitions with {@link SplitKeyReader}
 * (base file key columns, logs merged), so keys that only MERGE_ON_READ logs hold are found too.
 * The engine reads the slices in parallel ({@link #forEachLocation} per split) and joins the
 * locations with its batch by (partition path, record key): keys are unique per partition, as
 * Hudi's non-global indexes keep them.
 */
public final class ExistingKeys {
  /** A live key of the table and the file group that holds it. */
  public record Location(String partitionPath, String recordKey, String fileId) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  private ExistingKeys() {}

  /** The snapshot of {@code table} restricted to the slices of {@code partitions}. */
  public static QueryPlan plan(Table table, Collection<String> partitions) {
    Set<String> wanted = Set.copyOf(partitions);
    QueryPlan all = QueryPlanner.plan(table, QuerySpec.snapshot());
    return new QueryPlan(all.table(), all.activeTimeline(), all.schema(), all.queryInstant(), all.range(),
        all.splits().stream().filter(s -> wanted.contains(s.slice().partitionPath())).toList());
  }

  /** Gives the location of every live key of {@code split} to {@code out}. */
  public static void forEachLocation(SplitKeyReader reader, Split split, Consumer<Location> out) {
    String partition = split.slice().partitionPath();
    String fileId = split.slice().fileId();
    reader.forEachKey(split, key -> out.accept(new Location(partition, key, fileId)));
  }
}
