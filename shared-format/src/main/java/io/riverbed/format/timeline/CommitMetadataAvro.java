package io.riverbed.format.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Commit metadata as Hudi 1.x writes it in a layout-2 timeline: an Avro container holding one
 * {@code HoodieCommitMetadata} (or {@code HoodieReplaceCommitMetadata}) record, read with the schema
 * the file embeds and written with Hudi 1.0.2's schemas. The record's fields carry the JSON form's
 * names, so it is mapped from and to that tree and {@link CommitMetadataJson} does the rest: one
 * mapping of Hudi's field names for both encodings.
 */
final class CommitMetadataAvro {

  private static final byte[] MAGIC = {'O', 'b', 'j', 1};
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private CommitMetadataAvro() {}

  /** True if {@code bytes} start as an Avro object container file. */
  static boolean isAvro(byte[] bytes) {
    if (bytes.length < MAGIC.length) {
      return false;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (bytes[i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  static CommitMetadata read(byte[] bytes, String source) {
    GenericRecord record = AvroTimelineFile.deserializeRequired(bytes, null, source);
    String name = record.getSchema().getName();
    if (!name.equals("HoodieCommitMetadata") && !name.equals("HoodieReplaceCommitMetadata")) {
      throw new CorruptFileException(source + " holds a " + name + " record, not commit metadata");
    }
    return CommitMetadataJson.read(toJson(record, record.getSchema()), source);
  }

  /** The Avro container Hudi 1.x writes for {@code metadata} (its replace form when it replaces file groups). */
  static byte[] write(CommitMetadata metadata) {
    Schema schema = metadata.isReplace() ? TimelineSchemas.REPLACE_COMMIT_METADATA : TimelineSchemas.COMMIT_METADATA;
    JsonNode tree;
    try {
      tree = MAPPER.readTree(CommitMetadataJson.write(metadata));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot map commit metadata to Avro", e);
    }
    ObjectNode root = (ObjectNode) tree;
    root.put("version", 1);
    return AvroTimelineFile.serialize((GenericRecord) fromJson(root, schema));
  }


  /** A JSON value as the Avro value of {@code schema}; fields the JSON lacks take their schema default (null). */
  private static Object fromJson(JsonNode node, Schema schema) {
    if (node == null || node.isNull()) {
      return null;
    }
    return switch (schema.getType()) {
      case UNION -> fromJson(node, schema.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL)
          .findFirst().orElseThrow());
      case RECORD -> {
        var record = new GenericData.Record(schema);
        for (Schema.Field field : schema.getFields()) {
          Object value = fromJson(node.get(field.name()), field.schema());
          record.put(field.pos(), value != null || !field.hasDefaultValue() ? value
              : GenericData.get().getDefaultValue(field));
        }
        yield record;
      }
      case MAP -> {
        var map = new LinkedHashMap<String, Object>();
        node.fields().forEachRemaining(e -> map.put(e.getKey(), fromJson(e.getValue(), schema.getValueType())));
        yield map;
      }
      case ARRAY -> {
        var list = new ArrayList<Object>();
        node.forEach(item -> list.add(fromJson(item, schema.getElementType())));
        yield list;
      }
      case STRING -> node.asText();
      case INT -> node.asInt();
      case LONG -> node.asLong();
      case DOUBLE -> node.asDouble();
      case FLOAT -> (float) node.asDouble();
      case BOOLEAN -> node.asBoolean();
      default -> throw new IllegalArgumentException("commit metadata has no " + schema.getType() + " field: " + schema);
    };
  }

  private static JsonNode toJson(Object value, Schema schema) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (value == null) {
      return f.nullNode();
    }
    return switch (schema.getType()) {
      case UNION -> toJson(value, schema.getTypes().get(
          GenericData.get().resolveUnion(schema, value)));
      case RECORD -> {
        ObjectNode node = f.objectNode();
        GenericRecord r = (GenericRecord) value;
        for (Schema.Field field : schema.getFields()) {
          node.set(field.name(), toJson(r.get(field.pos()), field.schema()));
        }
        yield node;
      }
      case MAP -> {
        ObjectNode node = f.objectNode();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
          node.set(e.getKey().toString(), toJson(e.getValue(), schema.getValueType()));
        }
        yield node;
      }
      case ARRAY -> {
        ArrayNode node = f.arrayNode();
        for (Object item : (Collection<?>) value) {
          node.add(toJson(item, schema.getElementType()));
        }
        yield node;
      }
      case STRING, ENUM -> f.textNode(value.toString());
      case INT -> f.numberNode((Integer) value);
      case LONG -> f.numberNode((Long) value);
      case FLOAT -> f.numberNode((Float) value);
      case DOUBLE -> f.numberNode((Double) value);
      case BOOLEAN -> f.booleanNode((Boolean) value);
      case BYTES -> f.binaryNode(bytesOf((ByteBuffer) value));
      case FIXED -> f.binaryNode(((org.apache.avro.generic.GenericFixed) value).bytes());
      case NULL -> f.nullNode();
    };
  }

  private static byte[] bytesOf(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
