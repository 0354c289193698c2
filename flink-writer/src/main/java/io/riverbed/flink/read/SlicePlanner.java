package io.riverbed.flink.read;

import io.riverbed.format.query.PlanContext;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.Split;
import io.riverbed.format.record.PartitionPaths;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans a batch read on the JobManager: the core's {@link QueryPlanner} turns the query into file
 * slices, the partitions the planner's partition pruning kept filter them, and each becomes a
 * {@link FileSliceSplit} carrying what its reader needs of the plan.
 */
final class SlicePlanner {
  private static final Logger LOG = LoggerFactory.getLogger(SlicePlanner.class);

  private SlicePlanner() {}

  /**
   * @param partitions the partitions to read as column-value maps (Flink's partition specs), or
   *     empty to read all
   */
  static List<FileSliceSplit> plan(TableToRead source, ReadQuery query, Optional<Set<Map<String, String>>> partitions) {
    Table table = source.open();
    QueryPlan plan = QueryPlanner.plan(table, query.spec(table.refreshTimeline()));
    if (plan.schema().isEmpty()) {
      LOG.info("Table {} has no commits yet: nothing to read", table.basePath());
      return List.of();
    }
    PlanContext context = PlanContext.of(plan, plan.schema().get());
    TableConfig config = table.config();
    List<FileSliceSplit> splits = new ArrayList<>();
    for (Split split : plan.splits()) {
      if (partitions.isPresent() && !partitions.get().contains(partitionValues(config, split.slice().partitionPath()))) {
        continue;
      }
      splits.add(new FileSliceSplit(split.slice().fileGroupId() + "#" + splits.size(), split, context, 0));
    }
    LOG.info("Table {}: {} read as of {} in {} splits ({} planned)", table.basePath(), query.type().optionValue(),
        plan.queryInstant().orElse("-"), splits.size(), plan.splits().size());
    return splits;
  }

  /** The partition column values a partition path of the table stands for. */
  static Map<String, String> partitionValues(TableConfig config, String partitionPath) {
    return PartitionPaths.parse(partitionPath, config.partitionFields(), config.hiveStylePartitioning(),
        config.urlEncodePartitioning());
  }
}
