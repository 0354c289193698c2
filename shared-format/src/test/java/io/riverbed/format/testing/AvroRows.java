package io.riverbed.format.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.riverbed.format.record.MetaFields;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;

/**
 * Avro records as canonical JSON lines, the form the integration tests' oracle writes Hudi's
 * answers in: meta columns first in Hudi's order, other columns by name, struct fields in schema
 * order, dates {@code yyyy-MM-dd}, timestamps ISO-8601 UTC with microseconds, lines sorted.
 */
public final class AvroRows {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);

  private AvroRows() {}

  /** Sorted canonical JSON lines of the records. */
  public static List<String> lines(Collection<GenericRecord> records) {
    List<String> out = new ArrayList<>(records.size());
    for (GenericRecord r : records) {
      out.add(line(r));
    }
    out.sort(null);
    return out;
  }

  /** One record as a canonical JSON line. */
  public static String line(GenericRecord record) {
    ObjectNode row = NODES.objectNode();
    Schema schema = record.getSchema();
    for (String meta : MetaFields.ALL) {
      if (schema.getField(meta) != null) {
        row.set(meta, value(schema.getField(meta).schema(), record.get(meta)));
      }
    }
    schema.getFields().stream().map(Schema.Field::name).filter(n -> !MetaFields.ALL.contains(n)).sorted()
        .forEach(n -> row.set(n, value(schema.getField(n).schema(), record.get(n))));
    try {
      return JSON.writeValueAsString(JSON.readTree(JSON.writeValueAsString(row)));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode value(Schema schema, Object v) {
    if (v == null) {
      return NODES.nullNode();
    }
    Schema s = schema;
    if (s.getType() == Schema.Type.UNION) {
      s = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow();
    }
    LogicalType logical = s.getLogicalType();
    if (logical instanceof LogicalTypes.Date) {
      return NODES.textNode(LocalDate.ofEpochDay(((Number) v).longValue()).toString());
    }
    if (logical instanceof LogicalTypes.TimestampMicros) {
      long micros = ((Number) v).longValue();
      return NODES.textNode(TIMESTAMP.format(java.time.Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L)));
    }
    if (logical instanceof LogicalTypes.TimestampMillis) {
      return NODES.textNode(TIMESTAMP.format(java.time.Instant.ofEpochMilli(((Number) v).longValue())));
    }
    if (logical instanceof LogicalTypes.Decimal d) {
      byte[] bytes = v instanceof ByteBuffer bb ? toBytes(bb) : ((GenericData.Fixed) v).bytes();
      return NODES.numberNode(new BigDecimal(new BigInteger(bytes), d.getScale()));
    }
    return switch (s.getType()) {
      case STRING, ENUM -> NODES.textNode(v.toString());
      case INT -> NODES.numberNode(((Number) v).intValue());
      case LONG -> NODES.numberNode(((Number) v).longValue());
      case FLOAT -> NODES.numberNode(((Number) v).floatValue());
      case DOUBLE -> NODES.numberNode(((Number) v).doubleValue());
      case BOOLEAN -> NODES.booleanNode((Boolean) v);
      case BYTES -> NODES.textNode(Base64.getEncoder().encodeToString(toBytes((ByteBuffer) v)));
      case FIXED -> NODES.textNode(Base64.getEncoder().encodeToString(((GenericData.Fixed) v).bytes()));
      case RECORD -> {
        ObjectNode node = NODES.objectNode();
        IndexedRecord r = (IndexedRecord) v;
        for (Schema.Field f : s.getFields()) {
          node.set(f.name(), value(f.schema(), r.get(f.pos())));
        }
        yield node;
      }
      case ARRAY -> {
        ArrayNode node = NODES.arrayNode();
        for (Object x : (Collection<?>) v) {
          node.add(value(s.getElementType(), x));
        }
        yield node;
      }
      case MAP -> {
        ObjectNode node = NODES.objectNode();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          node.set(e.getKey().toString(), value(s.getValueType(), e.getValue()));
        }
        yield node;
      }
      default -> NODES.textNode(v.toString());
    };
  }

  private static byte[] toBytes(ByteBuffer bb) {
    ByteBuffer d = bb.duplicate();
    byte[] out = new byte[d.remaining()];
    d.get(out);
    return out;
  }
}
