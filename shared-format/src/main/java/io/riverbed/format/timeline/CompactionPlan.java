package io.riverbed.format.timeline;

import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Content of {@code T.compaction.requested} ({@code HoodieCompactionPlan}). The plan's
 * {@code strategy} is not modelled: it is written as null and ignored on read.
 *
 * @param operations file groups to compact
 * @param extraMetadata copied into the completed commit's extra metadata; may be null
 * @param version plan version; 2 (log file names, not paths) is what Hudi 0.15 writes
 * @param preserveHoodieMetadata Hudi's flag; false unless a plan says otherwise
 */
public record CompactionPlan(
    List<CompactionOperation> operations,
    Map<String, String> extraMetadata,
    int version,
    boolean preserveHoodieMetadata) {

  /** Hudi's {@code CompactionUtils.LATEST_COMPACTION_METADATA_VERSION}. */
  public static final int LATEST_VERSION = 2;

  public CompactionPlan {
    operations = operations == null ? List.of() : List.copyOf(operations);
    extraMetadata = extraMetadata == null ? null : Map.copyOf(extraMetadata);
  }

  /** A version-2 plan of these operations without extra metadata. */
  public static CompactionPlan of(List<CompactionOperation> operations) {
    return new CompactionPlan(operations, null, LATEST_VERSION, false);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.COMPACTION_PLAN);
    r.put("operations", operations.stream().map(CompactionOperation::toRecord).toList());
    r.put("extraMetadata", extraMetadata);
    r.put("version", version);
    r.put("strategy", null);
    r.put("preserveHoodieMetadata", preserveHoodieMetadata);
    return r;
  }

  public static CompactionPlan fromRecord(GenericRecord r) {
    List<CompactionOperation> ops = AvroValues.list(r.get("operations"),
        o -> CompactionOperation.fromRecord((GenericRecord) o));
    Object preserve = r.get("preserveHoodieMetadata");
    return new CompactionPlan(ops, AvroValues.map(r.get("extraMetadata"), AvroValues::string),
        AvroValues.intOr(r.get("version"), 1), preserve != null && (Boolean) preserve);
  }

  /** The requested-file bytes: Avro container, null codec, one record. */
  public byte[] toBytes() {
    return AvroTimelineFile.serialize(toRecord());
  }

  /** Parses a requested compaction file; {@code source} names it in errors. */
  public static CompactionPlan fromBytes(byte[] bytes, String source) {
    return fromRecord(AvroTimelineFile.deserializeRequired(bytes, TimelineSchemas.COMPACTION_PLAN, source));
  }
}
