package io.riverbed.format.query;

import org.apache.avro.generic.GenericRecord;

/**
 * One change an incremental split's range holds, as a streaming reader emits it: a key's record
 * written in the range (an insert or an update: the files do not say which), or a key deleted in
 * the range, known by its record key and partition path alone.
 */
public sealed interface RowChange {

  /** A record the range wrote for its key. */
  record Upserted(GenericRecord record) implements RowChange {}

  /** A key the range deleted. */
  record Deleted(String recordKey, String partitionPath) implements RowChange {}
}
