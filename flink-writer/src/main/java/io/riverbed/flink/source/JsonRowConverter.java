package io.riverbed.flink.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Converts one JSON object into a {@link RowData} of a given row type. The per-field converters
 * are built once; a value that does not fit raises {@link BadRecordException} naming the field
 * path ({@code customer.address.zip}).
 *
 * <p>Mapping: fields by name, JSON fields not in the row type are ignored, missing fields are
 * null (an error for NOT NULL fields); {@link #keepingNewFields} keeps the top-level ones.
 * Integers from JSON integers or digit strings (range
 * checked); floating types from any number; decimals from numbers or strings (rounded half-up to
 * the scale; too many digits is an error); strings from any scalar (objects and arrays as their
 * JSON text); bytes from base64 strings; dates from {@code yyyy-MM-dd} or days since epoch; times
 * from {@code HH:mm:ss[.SSS]}; timestamps from ISO-8601 strings ({@code 2024-05-01T10:00:00[.fff]},
 * a space instead of {@code T} is accepted; with {@code Z} or an offset the instant is taken in
 * UTC) or epoch milliseconds; arrays from arrays; maps (string keys) and rows from objects.
 */
public final class JsonRowConverter implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** Converts one non-null JSON value; {@code path} names the field for errors. */
  @FunctionalInterface
  private interface ValueConverter extends Serializable {
    Object convert(JsonNode node);
  }

  private final RowType rowType;
  private final ValueConverter rowConverter;
  /** With {@link #keepingNewFields}: the row type's top-level names; else null. */
  private final Set<String> knownFields;

  private JsonRowConverter(RowType rowType, boolean keepNewFields) {
    this.rowType = rowType;
    this.rowConverter = rowConverter(rowType, "");
    this.knownFields = keepNewFields ? new HashSet<>(rowType.getFieldNames()) : null;
  }

  public static JsonRowConverter of(RowType rowType) {
    return new JsonRowConverter(rowType, false);
  }

  /**
   * A converter whose rows have one more field, last: the JSON object of the record's top-level
   * fields that are not in {@code rowType} (its text, or null when there are none), for a writer
   * that adds them to the table ({@code RiverbedSink#withNewFields}).
   */
  public static JsonRowConverter keepingNewFields(RowType rowType) {
    return new JsonRowConverter(rowType, true);
  }

  public RowType rowType() {
    return rowType;
  }

  /** Parses {@code json} (one object) and converts it; throws {@link BadRecordException}. */
  public RowData convert(String json) {
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new BadRecordException("not valid JSON: " + e.getOriginalMessage()
          + (e.getLocation() != null ? " (column " + e.getLocation().getColumnNr() + ")" : ""));
    }
    if (node == null || !node.isObject()) {
      throw new BadRecordException("expected a JSON object, got " + describe(node));
    }
    RowData row = (RowData) rowConverter.convert(node);
    return knownFields == null ? row : withNewFields((GenericRowData) row, node);
  }

  private GenericRowData withNewFields(GenericRowData row, JsonNode record) {
    ObjectNode newFields = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = record.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!knownFields.contains(field.getKey())) {
        newFields = newFields == null ? MAPPER.createObjectNode() : newFields;
        newFields.set(field.getKey(), field.getValue());
      }
    }
    int n = row.getArity();
    GenericRowData out = new GenericRowData(row.getRowKind(), n + 1);
    for (int i = 0; i < n; i++) {
      out.setField(i, row.getField(i));
    }
    out.setField(n, newFields == null ? null : StringData.fromString(newFields.toString()));
    return out;
  }

  private static ValueConverter rowConverter(RowType rowType, String prefix) {
    int n = rowType.getFieldCount();
    String[] names = rowType.getFieldNames().toArray(new String[0]);
    ValueConverter[] converters = new ValueConverter[n];
    boolean[] nullable = new boolean[n];
    String[] paths = new String[n];
    for (int i = 0; i < n; i++) {
      paths[i] = prefix.isEmpty() ? names[i] : prefix + "." + names[i];
      converters[i] = converter(rowType.getTypeAt(i), paths[i]);
      nullable[i] = rowType.getTypeAt(i).isNullable();
    }
    String where = prefix.isEmpty() ? "the record" : "field '" + prefix + "'";
    return node -> {
      if (!node.isObject()) {
        throw bad(prefix, "an object", node);
      }
      GenericRowData row = new GenericRowData(n);
      for (int i = 0; i < n; i++) {
        JsonNode value = node.get(names[i]);
        if (value == null || value.isNull()) {
          if (!nullable[i]) {
            throw new BadRecordException("field '" + paths[i] + "' is NOT NULL but "
                + (value == null ? "missing from " + where : "null"));
          }
          continue;
        }
        row.setField(i, converters[i].convert(value));
      }
      return row;
    };
  }

  private static ValueConverter converter(LogicalType type, String path) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> node -> {
        if (node.isBoolean()) {
          return node.booleanValue();
        }
        if (node.isTextual() && (node.textValue().equals("true") || node.textValue().equals("false"))) {
          return Boolean.parseBoolean(node.textValue());
        }
        throw bad(path, "a boolean", node);
      };
      case TINYINT -> node -> (byte) integral(node, path, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case SMALLINT -> node -> (short) integral(node, path, Short.MIN_VALUE, Short.MAX_VALUE);
      case INTEGER -> node -> (int) integral(node, path, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case BIGINT -> node -> integral(node, path, Long.MIN_VALUE, Long.MAX_VALUE);
      case FLOAT -> node -> (float) floating(node, path);
      case DOUBLE -> node -> floating(node, path);
      case CHAR, VARCHAR -> node -> StringData.fromString(node.isValueNode() ? node.asText() : node.toString());
      case BINARY, VARBINARY -> node -> {
        if (!node.isTextual()) {
          throw bad(path, "a base64 string", node);
        }
        try {
          return Base64.getDecoder().decode(node.textValue());
        } catch (IllegalArgumentException e) {
          throw bad(path, "a base64 string", node);
        }
      };
      case DECIMAL -> {
        DecimalType d = (DecimalType) type;
        int precision = d.getPrecision();
        int scale = d.getScale();
        yield node -> {
          BigDecimal value;
          if (node.isNumber()) {
            value = node.decimalValue();
          } else if (node.isTextual()) {
            try {
              value = new BigDecimal(node.textValue().trim());
            } catch (NumberFormatException e) {
              throw bad(path, "a decimal number", node);
            }
          } else {
            throw bad(path, "a decimal number", node);
          }
          DecimalData data = DecimalData.fromBigDecimal(value, precision, scale);
          if (data == null) {
            throw new BadRecordException("field '" + path + "': " + value + " does not fit DECIMAL("
                + precision + ", " + scale + ")");
          }
          return data;
        };
      }
      case DATE -> node -> {
        if (node.isIntegralNumber()) {
          return node.intValue();
        }
        try {
          return (int) LocalDate.parse(text(node, path, "a date (yyyy-MM-dd)")).toEpochDay();
        } catch (DateTimeParseException e) {
          throw bad(path, "a date (yyyy-MM-dd)", node);
        }
      };
      case TIME_WITHOUT_TIME_ZONE -> node -> {
        try {
          return (int) (LocalTime.parse(text(node, path, "a time (HH:mm:ss)")).toNanoOfDay() / 1_000_000L);
        } catch (DateTimeParseException e) {
          throw bad(path, "a time (HH:mm:ss)", node);
        }
      };
      case TIMESTAMP_WITHOUT_TIME_ZONE -> node -> node.isIntegralNumber()
          ? TimestampData.fromEpochMillis(node.longValue())
          : TimestampData.fromLocalDateTime(localDateTime(node, path));
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> node -> node.isIntegralNumber()
          ? TimestampData.fromEpochMillis(node.longValue())
          : TimestampData.fromInstant(localDateTime(node, path).toInstant(ZoneOffset.UTC));
      case ROW -> rowConverter((RowType) type, path);
      case ARRAY -> {
        LogicalType elementType = ((ArrayType) type).getElementType();
        ValueConverter element = converter(elementType, path + "[]");
        boolean elementNullable = elementType.isNullable();
        yield node -> {
          if (!node.isArray()) {
            throw bad(path, "an array", node);
          }
          Object[] values = new Object[node.size()];
          for (int i = 0; i < values.length; i++) {
            JsonNode e = node.get(i);
            if (e.isNull()) {
              if (!elementNullable) {
                throw new BadRecordException("field '" + path + "': element " + i + " is null but elements are NOT NULL");
              }
            } else {
              values[i] = element.convert(e);
            }
          }
          return new GenericArrayData(values);
        };
      }
      case MAP -> {
        MapType m = (MapType) type;
        if (!m.getKeyType().is(LogicalTypeFamily.CHARACTER_STRING)) {
          throw new IllegalArgumentException("field '" + path + "': JSON maps need string keys, the row type has " + m.getKeyType());
        }
        ValueConverter value = converter(m.getValueType(), path + "{}");
        yield node -> {
          if (!node.isObject()) {
            throw bad(path, "an object (map)", node);
          }
          Map<Object, Object> map = new HashMap<>();
          for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            map.put(StringData.fromString(e.getKey()), e.getValue().isNull() ? null : value.convert(e.getValue()));
          }
          return new GenericMapData(map);
        };
      }
      default -> throw new IllegalArgumentException("field '" + path + "' has type " + type
          + ", which JSON input cannot fill");
    };
  }

  private static long integral(JsonNode node, String path, long min, long max) {
    long v;
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      v = node.longValue();
    } else if (node.isTextual()) {
      try {
        v = Long.parseLong(node.textValue().trim());
      } catch (NumberFormatException e) {
        throw bad(path, "an integer", node);
      }
    } else {
      throw bad(path, "an integer", node);
    }
    if (v < min || v > max) {
      throw new BadRecordException("field '" + path + "': " + v + " is out of range [" + min + ", " + max + "]");
    }
    return v;
  }

  private static double floating(JsonNode node, String path) {
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isTextual()) {
      try {
        return Double.parseDouble(node.textValue().trim());
      } catch (NumberFormatException e) {
        throw bad(path, "a number", node);
      }
    }
    throw bad(path, "a number", node);
  }

  private static LocalDateTime localDateTime(JsonNode node, String path) {
    String expected = "a timestamp (ISO-8601 or epoch milliseconds)";
    String s = text(node, path, expected).trim().replace(' ', 'T');
    try {
      char last = s.charAt(s.length() - 1);
      if (last == 'Z' || s.lastIndexOf('+') > 10 || s.lastIndexOf('-') > 10) {
        return LocalDateTime.ofInstant(OffsetDateTime.parse(s).toInstant(), ZoneOffset.UTC);
      }
      if (s.length() == 10) {
        return LocalDate.parse(s).atStartOfDay();
      }
      return LocalDateTime.parse(s);
    } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
      throw bad(path, expected, node);
    }
  }

  private static String text(JsonNode node, String path, String expected) {
    if (!node.isTextual()) {
      throw bad(path, expected, node);
    }
    return node.textValue();
  }

  private static BadRecordException bad(String path, String expected, JsonNode node) {
    String field = path.isEmpty() ? "the record" : "field '" + path + "'";
    return new BadRecordException(field + ": expected " + expected + ", got " + describe(node));
  }

  /** A JSON value for an error message: its text, cut at 80 characters. */
  public static String describe(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    String text = node.toString();
    return text.length() > 80 ? text.substring(0, 77) + "..." : text;
  }
}
