package io.riverbed.hive.input;

import io.riverbed.format.query.PlanContext;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.Split;
import io.riverbed.format.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;

/**
 * Plans what Hive asked to read: the folders it passes (the partitions left after pruning, or
 * the table folder) are grouped by table; each table is planned once by the core's planner, and
 * the plan's slices in those partitions become the splits, one per file slice. The query is the
 * format's own unless the session asks for another of that table ({@link ConsumeOptions}).
 */
final class SlicePlanner {
  private SlicePlanner() {}

  static List<FileSliceSplit> plan(JobConf job, Path[] dirs, QuerySpec spec) {
    Map<Path, Set<String>> partitionsByTable = new LinkedHashMap<>();
    Map<Path, FileSystem> fileSystems = new LinkedHashMap<>();
    for (Path dir : dirs) {
      FileSystem fs = fileSystem(dir, job);
      TableLocator.Location location = TableLocator.locate(fs, dir);
      partitionsByTable.computeIfAbsent(location.basePath(), p -> new LinkedHashSet<>()).add(location.partitionPath());
      fileSystems.putIfAbsent(location.basePath(), fs);
    }
    List<FileSliceSplit> splits = new ArrayList<>();
    partitionsByTable.forEach((basePath, partitions) -> {
      Table table = Table.open(fileSystems.get(basePath), basePath);
      QuerySpec query = ConsumeOptions.of(job, table.config().name()).query(table, spec);
      QueryPlan plan = QueryPlanner.plan(table, query);
      if (plan.schema().isEmpty()) {
        return;
      }
      PlanContext context = PlanContext.of(plan, plan.schema().get());
      boolean wholeTable = partitions.contains("");
      for (Split split : plan.splits()) {
        if (wholeTable || partitions.contains(split.slice().partitionPath())) {
          splits.add(new FileSliceSplit(table.basePath(), split, context));
        }
      }
    });
    return splits;
  }

  private static FileSystem fileSystem(Path dir, JobConf job) {
    try {
      return dir.getFileSystem(job);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the file system of " + dir, e);
    }
  }
}
