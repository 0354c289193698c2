package io.riverbed.format.timeline;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON form of {@link CommitMetadata} as Hudi 0.15's Jackson mapper writes it: field
 * visibility (declaration order, superclass fields first), nulls written, default pretty
 * printer; on read, unknown properties are ignored and absent ones take Hudi's defaults.
 */
final class CommitMetadataJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final DefaultPrettyPrinter PRETTY =
      new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));

  private CommitMetadataJson() {}

  static String write(CommitMetadata metadata) {
    var out = new StringWriter();
    try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
      g.setPrettyPrinter(PRETTY);
      g.writeStartObject();
      g.writeObjectFieldStart("partitionToWriteStats");
      for (var e : metadata.partitionToWriteStats().entrySet()) {
        g.writeArrayFieldStart(e.getKey());
        for (WriteStat stat : e.getValue()) {
          writeStat(g, stat);
        }
        g.writeEndArray();
      }
      g.writeEndObject();
      g.writeBooleanField("compacted", metadata.compacted());
      g.writeObjectFieldStart("extraMetadata");
      for (var e : metadata.extraMetadata().entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeStringField("operationType", metadata.operationType().name());
      if (metadata.partitionToReplaceFileIds() != null) {
        g.writeObjectFieldStart("partitionToReplaceFileIds");
        for (var e : metadata.partitionToReplaceFileIds().entrySet()) {
          writeStrings(g, e.getKey(), e.getValue());
        }
        g.writeEndObject();
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void writeStat(JsonGenerator g, WriteStat s) throws IOException {
    g.writeStartObject();
    nullableString(g, "fileId", s.fileId());
    nullableString(g, "path", s.path());
    if (s.cdcStats() == null) {
      g.writeNullField("cdcStats");
    } else {
      g.writeObjectFieldStart("cdcStats");
      for (var e : s.cdcStats().entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }
    nullableString(g, "prevCommit", s.prevCommit());
    g.writeNumberField("numWrites", s.numWrites());
    g.writeNumberField("numDeletes", s.numDeletes());
    g.writeNumberField("numUpdateWrites", s.numUpdateWrites());
    g.writeNumberField("numInserts", s.numInserts());
    g.writeNumberField("totalWriteBytes", s.totalWriteBytes());
    g.writeNumberField("totalWriteErrors", s.totalWriteErrors());
    nullableString(g, "tempPath", s.tempPath());
    nullableString(g, "partitionPath", s.partitionPath());
    g.writeNumberField("totalLogRecords", s.totalLogRecords());
    g.writeNumberField("totalLogFilesCompacted", s.totalLogFilesCompacted());
    g.writeNumberField("totalLogSizeCompacted", s.totalLogSizeCompacted());
    g.writeNumberField("totalUpdatedRecordsCompacted", s.totalUpdatedRecordsCompacted());
    g.writeNumberField("totalLogBlocks", s.totalLogBlocks());
    g.writeNumberField("totalCorruptLogBlock", s.totalCorruptLogBlock());
    g.writeNumberField("totalRollbackBlocks", s.totalRollbackBlocks());
    g.writeNumberField("fileSizeInBytes", s.fileSizeInBytes());
    nullableLong(g, "minEventTime", s.minEventTime());
    nullableLong(g, "maxEventTime", s.maxEventTime());
    if (s.runtimeStats() == null) {
      g.writeNullField("runtimeStats");
    } else {
      g.writeObjectFieldStart("runtimeStats");
      g.writeNumberField("totalScanTime", s.runtimeStats().totalScanTime());
      g.writeNumberField("totalUpsertTime", s.runtimeStats().totalUpsertTime());
      g.writeNumberField("totalCreateTime", s.runtimeStats().totalCreateTime());
      g.writeEndObject();
    }
    if (s.delta() != null) {
      WriteStat.DeltaStats d = s.delta();
      g.writeNumberField("logVersion", d.logVersion());
      g.writeNumberField("logOffset", d.logOffset());
      nullableString(g, "baseFile", d.baseFile());
      writeStrings(g, "logFiles", d.logFiles());
      // Hudi serializes its Option<Map<...>> recordsStats as an object with a "val" field.
      g.writeObjectFieldStart("recordsStats");
      g.writeNullField("val");
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  private static void writeStrings(JsonGenerator g, String field, List<String> values) throws IOException {
    g.writeArrayFieldStart(field);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  private static void nullableString(JsonGenerator g, String field, String value) throws IOException {
    if (value == null) {
      g.writeNullField(field);
    } else {
      g.writeStringField(field, value);
    }
  }

  private static void nullableLong(JsonGenerator g, String field, Long value) throws IOException {
    if (value == null) {
      g.writeNullField(field);
    } else {
      g.writeNumberField(field, value);
    }
  }

  // ---- reading -------------------------------------------------------------------------------

  static CommitMetadata read(byte[] json, String source) {
    String text = new String(json, StandardCharsets.UTF_8);
    if (text.isBlank()) {
      return CommitMetadata.empty();
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (IOException e) {
      throw new CorruptFileException("cannot parse commit metadata " + source + ": " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new CorruptFileException("commit metadata " + source + " is not a JSON object");
    }
    return read(root, source);
  }

  /** Commit metadata from its JSON tree (also what {@link CommitMetadataAvro} maps an Avro record to). */
  static CommitMetadata read(JsonNode root, String source) {
    var stats = new LinkedHashMap<String, List<WriteStat>>();
    JsonNode statsNode = root.get("partitionToWriteStats");
    if (isPresent(statsNode)) {
      for (var it = statsNode.fields(); it.hasNext(); ) {
        var e = it.next();
        var list = new ArrayList<WriteStat>();
        if (isPresent(e.getValue())) {
          for (JsonNode s : e.getValue()) {
            list.add(readStat(s));
          }
        }
        stats.put(e.getKey(), list);
      }
    }
    boolean compacted = root.path("compacted").asBoolean(false);
    var extra = new LinkedHashMap<String, String>();
    JsonNode extraNode = root.get("extraMetadata");
    if (isPresent(extraNode)) {
      extraNode.fields().forEachRemaining(e -> extra.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
    }
    WriteOperationType op = WriteOperationType.UNKNOWN;
    JsonNode opNode = root.get("operationType");
    if (isPresent(opNode)) {
      try {
        op = WriteOperationType.valueOf(opNode.asText());
      } catch (IllegalArgumentException e) {
        throw new CorruptFileException("commit metadata " + source + ": unknown operationType '" + opNode.asText() + "'");
      }
    }
    Map<String, List<String>> replaced = null;
    JsonNode replacedNode = root.get("partitionToReplaceFileIds");
    if (isPresent(replacedNode)) {
      replaced = new LinkedHashMap<>();
      for (var it = replacedNode.fields(); it.hasNext(); ) {
        var e = it.next();
        replaced.put(e.getKey(), strings(e.getValue()));
      }
    }
    return new CommitMetadata(stats, compacted, extra, op, replaced);
  }

  private static WriteStat readStat(JsonNode s) {
    Map<String, Long> cdc = null;
    if (isPresent(s.get("cdcStats"))) {
      cdc = new LinkedHashMap<>();
      for (var it = s.get("cdcStats").fields(); it.hasNext(); ) {
        var e = it.next();
        cdc.put(e.getKey(), e.getValue().asLong());
      }
    }
    WriteStat.RuntimeStats runtime = null;
    JsonNode rt = s.get("runtimeStats");
    if (isPresent(rt)) {
      runtime = new WriteStat.RuntimeStats(rt.path("totalScanTime").asLong(),
          rt.path("totalUpsertTime").asLong(), rt.path("totalCreateTime").asLong());
    }
    WriteStat.DeltaStats delta = null;
    // present and not null: Hudi 1.x's Avro form has the delta fields on every stat, null on a base file's
    if (isPresent(s.get("logVersion")) || isPresent(s.get("logOffset")) || isPresent(s.get("logFiles"))
        || isPresent(s.get("baseFile"))) {
      delta = new WriteStat.DeltaStats(s.path("logVersion").asInt(), s.path("logOffset").asLong(),
          text(s, "baseFile"), strings(s.get("logFiles")));
    }
    return new WriteStat(text(s, "fileId"), text(s, "path"), cdc, text(s, "prevCommit"),
        s.path("numWrites").asLong(), s.path("numDeletes").asLong(), s.path("numUpdateWrites").asLong(),
        s.path("numInserts").asLong(), s.path("totalWriteBytes").asLong(), s.path("totalWriteErrors").asLong(),
        text(s, "tempPath"), text(s, "partitionPath"), s.path("totalLogRecords").asLong(),
        s.path("totalLogFilesCompacted").asLong(), s.path("totalLogSizeCompacted").asLong(),
        s.path("totalUpdatedRecordsCompacted").asLong(), s.path("totalLogBlocks").asLong(),
        s.path("totalCorruptLogBlock").asLong(), s.path("totalRollbackBlocks").asLong(),
        s.path("fileSizeInBytes").asLong(), nullableLong(s, "minEventTime"), nullableLong(s, "maxEventTime"),
        runtime, delta);
  }

  private static boolean isPresent(JsonNode node) {
    return node != null && !node.isNull() && !node.isMissingNode();
  }

  private static String text(JsonNode s, String field) {
    JsonNode n = s.get(field);
    return isPresent(n) ? n.asText() : null;
  }

  private static Long nullableLong(JsonNode s, String field) {
    JsonNode n = s.get(field);
    return isPresent(n) ? n.asLong() : null;
  }

  private static List<String> strings(JsonNode array) {
    var list = new ArrayList<String>();
    if (isPresent(array)) {
      array.forEach(n -> list.add(n.asText()));
    }
    return list;
  }
}
