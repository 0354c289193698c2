package io.riverbed.format.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.format.CorruptFileException;
import io.riverbed.format.TableException;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.AvroTimelineFile;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.State;
import io.riverbed.format.timeline.TimelineSchemas;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Converts one state file of the active timeline into a {@code HoodieArchivedMetaEntry} record, with
 * the content Hudi 0.15's {@code MetadataConversionUtils.createMetaWrapper} puts there per action and
 * state, and reads the instant back from such a record.
 *
 * <ul>
 *   <li>commit, deltacommit (any state with content): {@code hoodieCommitMetadata}, the commit JSON
 *       mapped field by field onto the Avro record ({@code operationType=COMPACT} for a compaction's
 *       commit, {@code ROLLING_STAT} emptied in the extra metadata);
 *   <li>replacecommit: completed {@code hoodieReplaceCommitMetadata}, inflight
 *       {@code HoodieInflightReplaceMetadata}, requested {@code hoodieRequestedReplaceMetadata};
 *   <li>clean: completed {@code hoodieCleanMetadata}, pending {@code hoodieCleanerPlan};
 *   <li>rollback: completed {@code hoodieRollbackMetadata}; savepoint {@code hoodieSavePointMetadata};
 *   <li>compaction / logcompaction (requested, inflight): {@code hoodieCompactionPlan} from the
 *       requested file;
 *   <li>an empty file: only time, action type, state and state transition time.
 * </ul>
 */
final class ArchivedEntries {
  private static final Schema ENTRY = TimelineSchemas.ARCHIVED_META_ENTRY;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLLING_STAT = "ROLLING_STAT";

  private ArchivedEntries() {}

  /**
   * The entry of {@code instant}.
   *
   * @param content the bytes of the instant's file
   * @param requestedContent the bytes of its requested file (compaction plans), or empty
   * @param stateTransitionTime the file's modification time as a 17-digit instant time, or null
   */
  static GenericRecord toEntry(Instant instant, byte[] content, Optional<byte[]> requestedContent,
      String stateTransitionTime, String source) {
    GenericRecord entry = new GenericData.Record(ENTRY);
    entry.put("commitTime", instant.time());
    entry.put("actionState", instant.state().name());
    entry.put("stateTransitionTime", stateTransitionTime);
    entry.put("version", 1);
    Action action = instant.action();
    entry.put("actionType", action.word());
    boolean completed = instant.isCompleted();
    switch (action) {
      case CLEAN -> {
        if (content.length > 0) {
          entry.put(completed ? "hoodieCleanMetadata" : "hoodieCleanerPlan",
              avro(content, completed ? "hoodieCleanMetadata" : "hoodieCleanerPlan", source));
        }
      }
      case COMMIT, DELTA_COMMIT -> {
        if (content.length > 0) {
          entry.put("hoodieCommitMetadata", commitMetadata(content, "hoodieCommitMetadata", source));
        }
      }
      case REPLACE_COMMIT -> {
        if (content.length > 0) {
          switch (instant.state()) {
            case COMPLETED -> entry.put("hoodieReplaceCommitMetadata",
                commitMetadata(content, "hoodieReplaceCommitMetadata", source));
            case INFLIGHT -> entry.put("HoodieInflightReplaceMetadata",
                commitMetadata(content, "HoodieInflightReplaceMetadata", source));
            case REQUESTED -> entry.put("hoodieRequestedReplaceMetadata",
                avro(content, "hoodieRequestedReplaceMetadata", source));
          }
        }
      }
      case ROLLBACK -> {
        if (completed && content.length > 0) {
          entry.put("hoodieRollbackMetadata", avro(content, "hoodieRollbackMetadata", source));
        }
      }
      case SAVEPOINT -> {
        if (content.length > 0) {
          entry.put("hoodieSavePointMetadata", avro(content, "hoodieSavePointMetadata", source));
        }
      }
      case COMPACTION, LOG_COMPACTION -> {
        byte[] plan = instant.isRequested() ? content : requestedContent.orElse(new byte[0]);
        if (plan.length > 0) {
          entry.put("hoodieCompactionPlan", avro(plan, "hoodieCompactionPlan", source));
        }
      }
      default -> throw new TableException("cannot archive " + source + ": Hudi archives no " + action.word()
          + " instants");
    }
    return entry;
  }

  /** The instant an entry stands for; empty for actions or states this format does not know. */
  static Optional<Instant> instantOf(GenericRecord entry) {
    Object time = entry.get("commitTime");
    Object type = entry.get("actionType");
    Object state = entry.get("actionState");
    if (time == null || type == null || state == null) {
      return Optional.empty();
    }
    Optional<Action> action = Action.fromWord(type.toString());
    State s;
    try {
      s = State.valueOf(state.toString());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (action.isEmpty() || (s == State.COMPLETED && action.get() != action.get().completedAs())) {
      return Optional.empty();
    }
    return Optional.of(new Instant(time.toString(), action.get(), s));
  }

  private static Schema nested(String field) {
    return nonNull(ENTRY.getField(field).schema());
  }

  private static GenericRecord avro(byte[] bytes, String field, String source) {
    return AvroTimelineFile.deserializeRequired(bytes, nested(field), source);
  }

  /** Commit JSON → Avro by field name, as Hudi's Jackson {@code convertValue} does. */
  private static GenericRecord commitMetadata(byte[] json, String field, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new CorruptFileException("cannot archive " + source + ": not commit metadata JSON: " + e.getMessage(), e);
    }
    GenericRecord record = (GenericRecord) convert(root, nested(field));
    if (root.path("compacted").asBoolean(false)) {
      record.put("operationType", "COMPACT");
    }
    @SuppressWarnings("unchecked")
    Map<String, String> extra = (Map<String, String>) record.get("extraMetadata");
    if (extra == null) {
      extra = new LinkedHashMap<>();
      record.put("extraMetadata", extra);
    }
    extra.put(ROLLING_STAT, "");
    return record;
  }

  private static Object convert(JsonNode node, Schema schema) {
    if (schema.getType() == Schema.Type.UNION) {
      if (node == null || node.isNull() || node.isMissingNode()) {
        return null;
      }
      return convert(node, nonNull(schema));
    }
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    return switch (schema.getType()) {
      case RECORD -> {
        GenericRecord r = new GenericData.Record(schema);
        for (Schema.Field f : schema.getFields()) {
          Object v = convert(node.get(f.name()), f.schema());
          r.put(f.name(), v != null || !f.hasDefaultValue() ? v : GenericData.get().getDefaultValue(f));
        }
        yield r;
      }
      case MAP -> {
        Map<String, Object> m = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
          var e = it.next();
          m.put(e.getKey(), convert(e.getValue(), schema.getValueType()));
        }
        yield m;
      }
      case ARRAY -> {
        List<Object> l = new ArrayList<>();
        node.forEach(n -> l.add(convert(n, schema.getElementType())));
        yield l;
      }
      case STRING -> node.isTextual() ? node.asText() : node.toString();
      case LONG -> node.asLong();
      case INT -> node.asInt();
      case DOUBLE -> node.asDouble();
      case FLOAT -> (float) node.asDouble();
      case BOOLEAN -> node.asBoolean();
      default -> throw new IllegalStateException("unexpected type in commit metadata schema: " + schema);
    };
  }

  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    return schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).findFirst().orElseThrow();
  }
}
