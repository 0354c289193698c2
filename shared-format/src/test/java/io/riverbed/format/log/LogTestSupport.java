package io.riverbed.format.log;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Schemas, records and raw file helpers shared by the log tests. */
final class LogTestSupport {

  static final Schema SCHEMA = SchemaBuilder.record("trip").namespace("hoodie.trips").fields()
      .optionalString("_hoodie_commit_time")
      .optionalString("_hoodie_commit_seqno")
      .optionalString("_hoodie_record_key")
      .optionalString("_hoodie_partition_path")
      .optionalString("_hoodie_file_name")
      .requiredLong("ts")
      .requiredString("rider")
      .name("_hoodie_is_deleted").type().booleanType().booleanDefault(false)
      .endRecord();

  private LogTestSupport() {}

  static FileSystem localFs() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static GenericRecord record(String key, long ts, String rider) {
    return record(key, ts, rider, false);
  }

  static GenericRecord record(String key, long ts, String rider, boolean deleted) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("_hoodie_commit_time", "20250101000000000");
    r.put("_hoodie_commit_seqno", "20250101000000000_0_1");
    r.put("_hoodie_record_key", key);
    r.put("_hoodie_partition_path", "p1");
    r.put("_hoodie_file_name", "f1");
    r.put("ts", ts);
    r.put("rider", rider);
    r.put("_hoodie_is_deleted", deleted);
    return r;
  }

  /** Writes blocks into a new log file; returns the path. */
  static Path writeLog(FileSystem fs, Path path, LogBlock... blocks) {
    LogFileWriter writer = LogFileWriter.create(fs, path);
    try {
      for (LogBlock block : blocks) {
        writer.append(block);
      }
      writer.close();
    } finally {
      writer.abort();
    }
    return path;
  }

  static List<LogBlock> readAll(FileSystem fs, Path path) {
    var blocks = new ArrayList<LogBlock>();
    try (LogFileReader reader = LogFileReader.open(fs, path)) {
      reader.forEachRemaining(blocks::add);
    }
    return blocks;
  }

  static byte[] readBytes(FileSystem fs, Path path) throws IOException {
    try (InputStream in = fs.open(path)) {
      return in.readAllBytes();
    }
  }

  /** Writes raw bytes through the file system (keeps checksum files consistent). */
  static void writeBytes(FileSystem fs, Path path, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true)) {
      out.write(bytes);
    }
  }

  static byte[] concat(byte[]... parts) {
    var out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
