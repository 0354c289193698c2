package io.riverbed.flink.index;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * The type of the index's keys (record keys, or partition and record key): Java strings, hashed to
 * key groups as {@code Types.STRING} hashes them, serialized by {@link RecordKeySerializer}.
 */
public final class RecordKeyType extends TypeInformation<String> {
  private static final long serialVersionUID = 1L;

  public static final RecordKeyType INSTANCE = new RecordKeyType();

  private RecordKeyType() {}

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<String> getTypeClass() {
    return String.class;
  }

  @Override
  public boolean isKeyType() {
    return true;
  }

  @Override
  public TypeSerializer<String> createSerializer(SerializerConfig config) {
    return new RecordKeySerializer();
  }

  @Override
  @Deprecated
  public TypeSerializer<String> createSerializer(ExecutionConfig config) {
    return new RecordKeySerializer();
  }

  @Override
  public String toString() {
    return "RecordKey";
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof RecordKeyType;
  }

  @Override
  public int hashCode() {
    return RecordKeyType.class.hashCode();
  }

  @Override
  public boolean canEqual(Object obj) {
    return obj instanceof RecordKeyType;
  }
}
