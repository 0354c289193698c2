package io.riverbed.spark;

import io.riverbed.format.file.NioLocalFileSystem;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.Timeline;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A {@link QueryPlan} without its splits, in a form that ships to executors: the table's base
 * path, the schema, the timeline the plan was made on (instants as strings) and the query
 * instant. Executors rebuild the plan ({@link #rebuild}) to read splits with the core's readers,
 * reading only {@code hoodie.properties}.
 */
public final class ShippedPlan implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String basePath;
  private final String avroSchemaJson;
  private final ArrayList<String> instants;
  private final String queryInstant;
  private transient Schema avroSchema;

  /** @param avroSchema the schema the plan's readers read (meta fields included) */
  public ShippedPlan(QueryPlan plan, Schema avroSchema) {
    this.basePath = plan.table().basePath().toString();
    this.avroSchemaJson = avroSchema.toString();
    this.instants = new ArrayList<>();
    for (Instant i : plan.activeTimeline().instants()) {
      instants.add(i.time() + "," + i.action().name() + "," + i.state().name());
    }
    this.queryInstant = plan.queryInstant().orElse(null);
  }

  public String basePath() {
    return basePath;
  }

  public synchronized Schema avroSchema() {
    if (avroSchema == null) {
      avroSchema = new Schema.Parser().parse(avroSchemaJson);
    }
    return avroSchema;
  }

  /** The plan, without splits, on {@code conf}'s file system. */
  public QueryPlan rebuild(Configuration conf) {
    Path base = new Path(basePath);
    Table table;
    try {
      table = Table.open(NioLocalFileSystem.of(base, conf), base);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reach " + basePath, e);
    }
    List<Instant> all = new ArrayList<>();
    for (String s : instants) {
      String[] p = s.split(",");
      all.add(new Instant(p[0], Action.valueOf(p[1]), State.valueOf(p[2])));
    }
    return new QueryPlan(table, Timeline.fromInstants(all), Optional.of(avroSchema()),
        Optional.ofNullable(queryInstant), Optional.empty(), List.of());
  }
}
