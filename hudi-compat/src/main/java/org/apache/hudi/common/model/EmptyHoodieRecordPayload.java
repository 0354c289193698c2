package org.apache.hudi.common.model;

/**
 * Apache Hudi's payload class that turns every record of a write into a delete, here so that
 * {@code classOf[EmptyHoodieRecordPayload].getName} compiles. Riverbed's Spark writer reads the name:
 * {@code hoodie.datasource.write.payload.class} set to it makes each row of the write delete its key,
 * as in Hudi. The class itself has no behaviour; nothing instantiates it.
 */
public final class EmptyHoodieRecordPayload {
  private EmptyHoodieRecordPayload() {}
}
