package io.riverbed.flink.read;

import io.riverbed.format.query.PlanContext;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.Split;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the next step of a streaming read on the JobManager: from the position the read has
 * issued up to, the commits completed since (up to the first still incomplete one, so that no
 * commit is passed over), as the core's change splits of that range
 * ({@link QueryPlanner#planChanges}). The first step places
 * the read: at the latest commit (nothing read yet), at a start commit, or, for
 * {@value ReadQuery#EARLIEST}, at the latest commit with the whole table as of it.
 */
final class ChangePlanner {
  private static final Logger LOG = LoggerFactory.getLogger(ChangePlanner.class);

  /**
   * One look at the timeline.
   *
   * @param from the position it started from (null: the read had not started)
   * @param to the position after it: the last commit its splits read up to
   * @param needsAfter its splits read what the commits after this instant wrote (what cleaning
   *     must keep for them)
   * @param splits the reads, in file group order
   */
  record Step(String from, String to, String needsAfter, List<FileSliceSplit> splits) {}

  private ChangePlanner() {}

  static Step next(Table table, StreamingRead read, String position) {
    Timeline active = table.refreshTimeline();
    if (position != null) {
      return incremental(table, read, active, position);
    }
    Optional<String> settled = settledLatest(active);
    if (read.startCommit() == null) {
      String at = settled.orElse(InstantTime.INIT);
      LOG.info("Table {}: streaming read starts after commit {}", table.basePath(), at);
      return new Step(null, at, at, List.of());
    }
    if (read.startCommit().equals(ReadQuery.EARLIEST) && settled.isPresent()) {
      QueryPlan plan = QueryPlanner.plan(table, QuerySpec.asOf(settled.get()));
      LOG.info("Table {}: streaming read starts with the table as of {}", table.basePath(), settled.get());
      return new Step(null, settled.get(), ReadQuery.exclusiveBegin(active, settled.get()), splits(plan, settled.get()));
    }
    String begin = ReadQuery.exclusiveBegin(active, read.startCommit());
    LOG.info("Table {}: streaming read starts at commit {} (after {})", table.basePath(), read.startCommit(), begin);
    Step step = incremental(table, read, active, begin);
    return new Step(null, step.to(), begin, step.splits());
  }

  /**
   * The latest completed commit before the first one still incomplete: a read placed there misses
   * no commit that completes later with an earlier instant time.
   */
  private static Optional<String> settledLatest(Timeline active) {
    Timeline commits = active.commitsTimeline();
    Optional<String> firstPending = commits.pending().first().map(Instant::time);
    return commits.completed().instants().stream().map(Instant::time)
        .filter(t -> firstPending.isEmpty() || t.compareTo(firstPending.get()) < 0)
        .reduce((a, b) -> b);
  }

  private static Step incremental(Table table, StreamingRead read, Timeline active, String position) {
    QueryPlan plan = QueryPlanner.planChanges(table, position, Optional.empty());
    String to = plan.range().map(InstantRange::endInclusive).orElse(position);
    if (to == null || to.compareTo(position) <= 0) {
      return new Step(position, position, position, List.of());
    }
    if (read.skipCompaction() && onlyCompactions(table, active, position, to)) {
      LOG.info("Table {}: streaming read passes over compaction commits ({}, {}]", table.basePath(), position, to);
      return new Step(position, to, position, List.of());
    }
    return new Step(position, to, position, splits(plan, to));
  }

  private static boolean onlyCompactions(Table table, Timeline active, String beginExclusive, String endInclusive) {
    return table.type() == TableType.MERGE_ON_READ && active.writeTimeline().completed().inRange(beginExclusive,
        endInclusive).instants().stream().allMatch(i -> i.action() == Action.COMMIT);
  }

  private static List<FileSliceSplit> splits(QueryPlan plan, String to) {
    if (plan.schema().isEmpty()) {
      return List.of();
    }
    PlanContext context = PlanContext.of(plan, plan.schema().get());
    List<FileSliceSplit> splits = new ArrayList<>();
    for (Split split : plan.splits()) {
      splits.add(new FileSliceSplit(split.slice().fileGroupId() + "@" + to + "#" + splits.size(), split, context, 0));
    }
    return splits;
  }
}
