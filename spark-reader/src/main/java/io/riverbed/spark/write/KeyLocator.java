package io.riverbed.spark.write;

import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitKeyReader;
import io.riverbed.format.write.batch.ExistingKeys;
import io.riverbed.spark.ShippedPlan;
import io.riverbed.spark.SliceSplit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * Reads the live keys of file slices on an executor ({@link ExistingKeys}), as (change key, file id)
 * pairs to join with the batch's changes by {@link BatchWrite#changeKey}. The slices travel in this
 * function (Java serialization), a task gets their positions: Spark's Kryo serializer, which
 * ships {@code parallelize}'s elements, cannot build the records slices are.
 */
final class KeyLocator implements PairFlatMapFunction<Iterator<Integer>, String, String> {
  private static final long serialVersionUID = 1L;

  private final ArrayList<SliceSplit> splits;
  private final ShippedPlan plan;
  private final Broadcast<SerializableConfiguration> conf;
  private final Map<String, String> options;

  KeyLocator(List<SliceSplit> splits, ShippedPlan plan, Broadcast<SerializableConfiguration> conf,
      Map<String, String> options) {
    this.splits = new ArrayList<>(splits);
    this.plan = plan;
    this.conf = conf;
    this.options = Map.copyOf(options);
  }

  @Override
  public Iterator<Tuple2<String, String>> call(Iterator<Integer> positions) {
    if (!positions.hasNext()) {
      return java.util.Collections.emptyIterator();
    }
    QueryPlan rebuilt = plan.rebuild(conf.value().value());
    SplitKeyReader reader = SplitKeyReader.of(rebuilt, ReadSettings.fromOptions(options));
    List<Tuple2<String, String>> out = new ArrayList<>();
    while (positions.hasNext()) {
      ExistingKeys.forEachLocation(reader, splits.get(positions.next()).toSplit(),
          l -> out.add(new Tuple2<>(BatchWrite.changeKey(l.partitionPath(), l.recordKey()), l.fileId())));
    }
    return out.iterator();
  }
}
