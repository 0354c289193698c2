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
import org.apache.spark.util.sketch.BloomFilter;
import scala.Tuple2;

/**
 * Reads the live keys of file slices on an executor ({@link ExistingKeys}), as (change key, file id)
 * pairs to join with the batch's changes by {@link BatchWrite#changeKey}: only the keys a filter of
 * the batch's keys lets through, since the join drops the others. The slices travel in this
 * function (Java serialization), a task gets their positions: Spark's Kryo serializer, which
 * ships {@code parallelize}'s elements, cannot build the records slices are.
 */
final class KeyLocator implements PairFlatMapFunction<Iterator<Integer>, String, String> {
  private static final long serialVersionUID = 1L;

  private final ArrayList<SliceSplit> splits;
  private final ShippedPlan plan;
  private final Broadcast<SerializableConfiguration> conf;
  private final Map<String, String> options;
  private final Broadcast<BloomFilter> changeKeys;

  /** @param changeKeys a filter of the batch's change keys: stored keys it rules out are not given; null for none */
  KeyLocator(List<SliceSplit> splits, ShippedPlan plan, Broadcast<SerializableConfiguration> conf,
      Map<String, String> options, Broadcast<BloomFilter> changeKeys) {
    this.splits = new ArrayList<>(splits);
    this.plan = plan;
    this.conf = conf;
    this.options = Map.copyOf(options);
    this.changeKeys = changeKeys;
  }

  @Override
  public Iterator<Tuple2<String, String>> call(Iterator<Integer> positions) {
    if (!positions.hasNext()) {
      return java.util.Collections.emptyIterator();
    }
    QueryPlan rebuilt = plan.rebuild(conf.value().value());
    SplitKeyReader reader = SplitKeyReader.of(rebuilt, ReadSettings.fromOptions(options));
    BloomFilter filter = changeKeys == null ? null : changeKeys.value();
    List<Tuple2<String, String>> out = new ArrayList<>();
    while (positions.hasNext()) {
      ExistingKeys.forEachLocation(reader, splits.get(positions.next()).toSplit(), l -> {
        String changeKey = BatchWrite.changeKey(l.partitionPath(), l.recordKey());
        if (filter == null || filter.mightContainString(changeKey)) {
          out.add(new Tuple2<>(changeKey, l.fileId()));
        }
      });
    }
    return out.iterator();
  }
}
