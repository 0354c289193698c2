package io.riverbed.format.query;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * The part of a {@link QueryPlan} every split reader needs to read its split as the planner meant:
 * the table schema and the timeline the plan was made on (which log blocks count). It travels
 * with each split to the engine's tasks (encoded by {@link SplitCodec}), so a task reads its split
 * without planning again, and a reader restored from a checkpoint reads alike.
 *
 * @param schemaJson the table schema with meta fields, as Avro JSON
 * @param instants the plan's active timeline
 * @param queryInstant the instant the plan reads as of, if any
 */
public record PlanContext(String schemaJson, List<Instant> instants, Optional<String> queryInstant) {

  public static PlanContext of(QueryPlan plan, Schema schema) {
    return new PlanContext(schema.toString(), List.copyOf(plan.activeTimeline().instants()), plan.queryInstant());
  }

  public Schema schema() {
    return new Schema.Parser().parse(schemaJson);
  }

  /** The plan, without its splits, over {@code table}. */
  public QueryPlan rebuild(Table table) {
    return new QueryPlan(table, Timeline.fromInstants(instants), Optional.of(schema()), queryInstant, Optional.empty(),
        List.of());
  }
}
