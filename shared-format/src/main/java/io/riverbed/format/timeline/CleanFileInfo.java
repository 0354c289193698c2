package io.riverbed.format.timeline;

import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * One file a clean plan deletes ({@code HoodieCleanFileInfo}).
 *
 * @param filePath absolute path, scheme included
 * @param isBootstrapBaseFile true for a bootstrap source file (never planned by Riverbed); may be null
 */
public record CleanFileInfo(String filePath, Boolean isBootstrapBaseFile) {

  public static CleanFileInfo of(String filePath) {
    return new CleanFileInfo(filePath, false);
  }

  public GenericRecord toRecord() {
    var r = new GenericData.Record(TimelineSchemas.CLEAN_FILE_INFO);
    r.put("filePath", filePath);
    r.put("isBootstrapBaseFile", isBootstrapBaseFile);
    return r;
  }

  public static CleanFileInfo fromRecord(GenericRecord r) {
    return new CleanFileInfo(AvroValues.string(r.get("filePath")), (Boolean) r.get("isBootstrapBaseFile"));
  }
}
