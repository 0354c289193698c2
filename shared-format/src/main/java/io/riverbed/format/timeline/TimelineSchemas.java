package io.riverbed.format.timeline;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;

/**
 * Avro schemas of the timeline records, as compiled into Hudi 0.15.0
 * ({@code org.apache.hudi.avro.model}: same names, field order, unions and defaults), loaded from
 * the {@code .avsc} resources next to this class; the commit metadata schemas are Hudi 1.0.2's,
 * which writes them in a layout-2 timeline (table version 8).
 */
public final class TimelineSchemas {

  public static final Schema COMPACTION_PLAN = load("HoodieCompactionPlan");
  public static final Schema COMPACTION_OPERATION = arrayItem(COMPACTION_PLAN, "operations");
  public static final Schema ROLLBACK_PLAN = load("HoodieRollbackPlan");
  public static final Schema ROLLBACK_REQUEST = arrayItem(ROLLBACK_PLAN, "RollbackRequests");
  public static final Schema ROLLBACK_METADATA = load("HoodieRollbackMetadata");
  public static final Schema ROLLBACK_PARTITION_METADATA =
      ROLLBACK_METADATA.getField("partitionMetadata").schema().getValueType();
  public static final Schema INSTANT_INFO = arrayItem(ROLLBACK_METADATA, "instantsRollback");
  public static final Schema CLEANER_PLAN = load("HoodieCleanerPlan");
  public static final Schema ACTION_INSTANT = fieldSchema(CLEANER_PLAN, "earliestInstantToRetain");
  public static final Schema CLEAN_FILE_INFO =
      fieldSchema(CLEANER_PLAN, "filePathsToBeDeletedPerPartition").getValueType().getElementType();
  public static final Schema CLEAN_METADATA = load("HoodieCleanMetadata");
  public static final Schema CLEAN_PARTITION_METADATA =
      CLEAN_METADATA.getField("partitionMetadata").schema().getValueType();
  public static final Schema SAVEPOINT_METADATA = load("HoodieSavepointMetadata");
  public static final Schema SAVEPOINT_PARTITION_METADATA =
      SAVEPOINT_METADATA.getField("partitionMetadata").schema().getValueType();
  public static final Schema RESTORE_PLAN = load("HoodieRestorePlan");
  public static final Schema RESTORE_INSTANT_INFO = arrayItem(RESTORE_PLAN, "instantsToRollback");
  public static final Schema RESTORE_METADATA = load("HoodieRestoreMetadata");
  public static final Schema RESTORE_METADATA_INSTANT_INFO = arrayItem(RESTORE_METADATA, "restoreInstantInfo");
  public static final Schema REQUESTED_REPLACE_METADATA = load("HoodieRequestedReplaceMetadata");
  /** Hudi 1.0.2's commit metadata of a layout-2 timeline. */
  public static final Schema COMMIT_METADATA = load("HoodieCommitMetadata");
  /** Hudi 1.0.2's replacecommit metadata of a layout-2 timeline. */
  public static final Schema REPLACE_COMMIT_METADATA = load("HoodieReplaceCommitMetadata");
  /** One instant state of the archived timeline, with every metadata record nested in it. */
  public static final Schema ARCHIVED_META_ENTRY = load("HoodieArchivedMetaEntry");
  /** One instant of Hudi 1.x's LSM history (table version 8), a row of its Parquet files. */
  public static final Schema LSM_TIMELINE_INSTANT = load("HoodieLSMTimelineInstant");

  private TimelineSchemas() {}

  private static Schema load(String name) {
    String resource = name + ".avsc";
    try (InputStream in = TimelineSchemas.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource + " next to " + TimelineSchemas.class);
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema resource " + resource, e);
    }
  }

  /** The non-null branch of a nullable union, or the schema itself if it is not a union. */
  static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    return schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("union of nulls: " + schema));
  }

  static Schema fieldSchema(Schema record, String field) {
    return nonNull(record.getField(field).schema());
  }

  private static Schema arrayItem(Schema record, String field) {
    return fieldSchema(record, field).getElementType();
  }
}
