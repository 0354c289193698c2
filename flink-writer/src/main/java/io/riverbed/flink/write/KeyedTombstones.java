package io.riverbed.flink.write;

import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.record.OrderingValueCodec;
import io.riverbed.format.write.BucketIndex;
import io.riverbed.format.write.StoredKeyVersions;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.state.KeyedStateStore;

/**
 * The bucket-index writer's tombstones in Flink keyed state, keyed as the writer's input is (by
 * partition and bucket), one map entry per deleted record key: the delete's ordering value and
 * time, expired by state TTL after {@code index.tombstone.retention}. So a writer restored from a
 * checkpoint still drops a change older than a delete that a copy-on-write merge or a compaction
 * has removed from the files.
 */
final class KeyedTombstones implements StoredKeyVersions.TombstoneStore {
  private final MapState<String, byte[]> state;
  private final Consumer<String> keySetter;

  private KeyedTombstones(MapState<String, byte[]> state, Consumer<String> keySetter) {
    this.state = state;
    this.keySetter = keySetter;
  }

  /**
   * @param keySetter makes a file group's input key ({@code partition \0 bucket}) the current key
   */
  static KeyedTombstones of(KeyedStateStore store, Duration retention, Consumer<String> keySetter) {
    var descriptor = new MapStateDescriptor<>("riverbed-bucket-tombstones", Types.STRING,
        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    descriptor.enableTimeToLive(StateTtlConfig.newBuilder(retention)
        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
        .build());
    return new KeyedTombstones(store.getMapState(descriptor), keySetter);
  }

  @Override
  public Map<String, StoredKeyVersions.Version> tombstones(FileGroupId id) {
    select(id);
    Map<String, StoredKeyVersions.Version> out = new HashMap<>();
    try {
      for (var entry : state.entries()) {
        ByteBuffer value = ByteBuffer.wrap(entry.getValue());
        long at = value.getLong();
        byte[] ordering = new byte[value.remaining()];
        value.get(ordering);
        out.put(entry.getKey(), new StoredKeyVersions.Version(OrderingValueCodec.decode(ordering), true, at));
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the tombstones of file group " + id + " from Flink state", e);
    }
    return out;
  }

  @Override
  public void deleted(FileGroupId id, String recordKey, Comparable<?> orderingValue, long atMillis) {
    select(id);
    byte[] ordering = OrderingValueCodec.encode(orderingValue);
    try {
      state.put(recordKey, ByteBuffer.allocate(8 + ordering.length).putLong(atMillis).put(ordering).array());
    } catch (Exception e) {
      throw new IllegalStateException("cannot keep the tombstone of key " + recordKey + " of " + id, e);
    }
  }

  @Override
  public void revived(FileGroupId id, String recordKey) {
    select(id);
    try {
      state.remove(recordKey);
    } catch (Exception e) {
      throw new IllegalStateException("cannot drop the tombstone of key " + recordKey + " of " + id, e);
    }
  }

  private void select(FileGroupId id) {
    keySetter.accept(id.partitionPath() + '\u0000' + BucketIndex.bucketOf(id.fileId()));
  }
}
