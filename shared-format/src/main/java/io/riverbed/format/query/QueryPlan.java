package io.riverbed.format.query;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.Timeline;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * A planned query: the splits to read and what every split reader needs to read them alike.
 *
 * @param table the table read
 * @param activeTimeline the timeline the plan was made on (decides which log blocks are committed)
 * @param schema the table schema with meta fields; empty for a table without commits or schema
 * @param queryInstant the instant read as of; empty when the table has no completed instant
 * @param range the incremental range, for incremental queries
 * @param splits one per file slice to read
 */
public record QueryPlan(Table table, Timeline activeTimeline, Optional<Schema> schema, Optional<String> queryInstant,
    Optional<InstantRange> range, List<Split> splits) {}
