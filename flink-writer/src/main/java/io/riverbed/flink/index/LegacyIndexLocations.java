package io.riverbed.flink.index;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;

/**
 * The state index's first layout, {@code riverbed-index-location}: a {@code (partition, file id)}
 * tuple per key, without ordering value, written by the first versions of the writer. A checkpoint
 * or savepoint of those versions still restores: the assigner moves every such location into an
 * {@link IndexEntry} once, when it opens restored state that holds some, so lookups read one state
 * and a job that never had this layout never registers it (on RocksDB every registered state is a
 * column family that a lookup of a new key would also have to miss).
 */
final class LegacyIndexLocations {
  static final String STATE_NAME = "riverbed-index-location";

  private LegacyIndexLocations() {}

  /** Where a moved location goes: the backend's current key is the location's key. */
  interface Target {
    void index(String partition, String fileId) throws Exception;
  }

  /**
   * Moves every location of the first layout in {@code backend} to {@code target} and clears it;
   * returns how many were moved (0 without touching the backend's states when there are none).
   */
  static long moveAll(KeyedStateBackend<String> backend, Target target) throws Exception {
    List<String> keys;
    try (Stream<String> restored = backend.getKeys(STATE_NAME, VoidNamespace.INSTANCE)) {
      // collected first: the heap backend's key stream must not see the state it walks change
      keys = restored.collect(Collectors.toList());
    }
    if (keys.isEmpty()) {
      return 0;
    }
    ValueState<Tuple2<String, String>> locations = backend.getPartitionedState(VoidNamespace.INSTANCE,
        VoidNamespaceSerializer.INSTANCE, descriptor());
    long moved = 0;
    for (String key : keys) {
      backend.setCurrentKey(key);
      Tuple2<String, String> location = locations.value();
      if (location != null) {
        target.index(location.f0, location.f1);
        locations.clear();
        moved++;
      }
    }
    return moved;
  }

  /** The first layout's state, as those versions declared it. */
  static ValueStateDescriptor<Tuple2<String, String>> descriptor() {
    return new ValueStateDescriptor<>(STATE_NAME, Types.TUPLE(Types.STRING, Types.STRING));
  }
}
