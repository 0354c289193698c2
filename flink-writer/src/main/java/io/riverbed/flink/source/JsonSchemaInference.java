package io.riverbed.flink.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Infers a row type from sample JSON records, for inputs given without {@code --schema}.
 *
 * <p>The rule: top-level fields in the order they first appear across the sample; every field
 * nullable; a JSON string is STRING, true/false BOOLEAN, an integer BIGINT (Avro long), any other
 * number DOUBLE; an object is a nested ROW (Avro record) whose fields are inferred the same way;
 * an array is an ARRAY of its elements' merged type. Merging the same field over records: null
 * or missing adds nothing, BIGINT with DOUBLE gives DOUBLE, rows merge field by field, any other
 * mix (a string here, a number there) widens to STRING. A field that is only ever null, an empty
 * object and an array with no non-null element become STRING (resp. ARRAY of STRING). Timestamps
 * and dates stay strings: give a schema to store them as timestamps. Field names must be valid
 * Avro names ({@code [A-Za-z_][A-Za-z0-9_]*}).
 */
public final class JsonSchemaInference {
  private static final Logger LOG = LoggerFactory.getLogger(JsonSchemaInference.class);
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Pattern AVRO_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Records this many non-blank lines at most are sampled unless told otherwise. */
  public static final int DEFAULT_SAMPLE = 100;

  private sealed interface Shape permits Scalar, Obj, Arr {}

  private enum Kind { NULL, BOOLEAN, LONG, DOUBLE, STRING }

  private record Scalar(Kind kind) implements Shape {}

  private record Obj(LinkedHashMap<String, Shape> fields) implements Shape {}

  private record Arr(Shape element) implements Shape {}

  private static final Scalar NULL = new Scalar(Kind.NULL);
  private static final Scalar STRING = new Scalar(Kind.STRING);

  private JsonSchemaInference() {}

  /**
   * Infers from the first {@code sampleSize} non-blank lines of {@code lines}. Bad lines fail
   * (naming the line) or, with {@link BadRecordPolicy#SKIP}, are left out of the sample.
   */
  public static RowType infer(Iterator<SourceLine> lines, int sampleSize, BadRecordPolicy policy) {
    Obj merged = new Obj(new LinkedHashMap<>());
    int sampled = 0;
    String origin = null;
    while (sampled < sampleSize && lines.hasNext()) {
      SourceLine line = lines.next();
      origin = origin == null ? line.origin() : origin;
      if (line.text().isBlank()) {
        continue;
      }
      Shape shape;
      try {
        JsonNode node = MAPPER.readTree(line.text());
        if (node == null || !node.isObject()) {
          throw new BadRecordException("expected a JSON object, got " + JsonRowConverter.describe(node));
        }
        shape = shapeOf(node, "");
      } catch (JsonProcessingException | BadRecordException e) {
        String why = e instanceof JsonProcessingException j ? "not valid JSON: " + j.getOriginalMessage() : e.getMessage();
        if (policy == BadRecordPolicy.FAIL) {
          throw new BadRecordException("bad record at " + line.location() + " while inferring the schema: " + why
              + " (use --on-bad-record skip to skip such records)");
        }
        LOG.warn("Skipping bad record at {} while inferring the schema: {}", line.location(), why);
        continue;
      }
      merged = (Obj) merge(merged, shape);
      sampled++;
    }
    if (sampled == 0) {
      throw new IllegalArgumentException("cannot infer a schema: no JSON records in "
          + (origin == null ? "the input (it is empty)" : origin) + "; pass --schema FILE.avsc");
    }
    if (merged.fields().isEmpty()) {
      throw new IllegalArgumentException("cannot infer a schema: the sampled records of " + origin
          + " have no fields; pass --schema FILE.avsc");
    }
    return (RowType) toLogicalType(merged);
  }

  /**
   * The type of a field first met with {@code value}, by this class's rule; empty when the value
   * says nothing (null). Throws {@link BadRecordException} for a nested field name Avro cannot take.
   */
  public static Optional<LogicalType> typeOf(JsonNode value, String path) {
    Shape shape = shapeOf(value, path);
    return NULL.equals(shape) ? Optional.empty() : Optional.of(toLogicalType(shape));
  }

  private static Shape shapeOf(JsonNode node, String path) {
    if (node.isObject()) {
      LinkedHashMap<String, Shape> fields = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String fieldPath = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        if (!AVRO_NAME.matcher(e.getKey()).matches()) {
          throw new BadRecordException("field '" + fieldPath + "' is not a valid Avro field name"
              + " ([A-Za-z_][A-Za-z0-9_]*); pass --schema FILE.avsc");
        }
        fields.put(e.getKey(), shapeOf(e.getValue(), fieldPath));
      }
      return new Obj(fields);
    }
    if (node.isArray()) {
      Shape element = NULL;
      for (JsonNode e : node) {
        element = merge(element, shapeOf(e, path + "[]"));
      }
      return new Arr(element);
    }
    if (node.isNull()) {
      return NULL;
    }
    if (node.isBoolean()) {
      return new Scalar(Kind.BOOLEAN);
    }
    if (node.isIntegralNumber()) {
      return new Scalar(node.canConvertToLong() ? Kind.LONG : Kind.DOUBLE);
    }
    if (node.isNumber()) {
      return new Scalar(Kind.DOUBLE);
    }
    return STRING;
  }

  private static Shape merge(Shape a, Shape b) {
    if (a instanceof Scalar s && s.kind() == Kind.NULL) {
      return b;
    }
    if (b instanceof Scalar s && s.kind() == Kind.NULL) {
      return a;
    }
    if (a instanceof Scalar x && b instanceof Scalar y) {
      if (x.kind() == y.kind()) {
        return x;
      }
      boolean numeric = (x.kind() == Kind.LONG || x.kind() == Kind.DOUBLE)
          && (y.kind() == Kind.LONG || y.kind() == Kind.DOUBLE);
      return numeric ? new Scalar(Kind.DOUBLE) : STRING;
    }
    if (a instanceof Obj x && b instanceof Obj y) {
      LinkedHashMap<String, Shape> fields = new LinkedHashMap<>(x.fields());
      y.fields().forEach((name, shape) -> fields.merge(name, shape, JsonSchemaInference::merge));
      return new Obj(fields);
    }
    if (a instanceof Arr x && b instanceof Arr y) {
      return new Arr(merge(x.element(), y.element()));
    }
    return STRING;
  }

  private static LogicalType toLogicalType(Shape shape) {
    if (shape instanceof Obj o) {
      if (o.fields().isEmpty()) {
        return new VarCharType(true, VarCharType.MAX_LENGTH);
      }
      List<RowType.RowField> fields = new ArrayList<>();
      o.fields().forEach((name, s) -> fields.add(new RowType.RowField(name, toLogicalType(s))));
      return new RowType(true, fields);
    }
    if (shape instanceof Arr a) {
      return new ArrayType(true, toLogicalType(a.element()));
    }
    return switch (((Scalar) shape).kind()) {
      case BOOLEAN -> new BooleanType(true);
      case LONG -> new BigIntType(true);
      case DOUBLE -> new DoubleType(true);
      case NULL, STRING -> new VarCharType(true, VarCharType.MAX_LENGTH);
    };
  }
}
