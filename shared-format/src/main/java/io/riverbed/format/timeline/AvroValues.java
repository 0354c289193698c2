package io.riverbed.format.timeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Converts the values Avro's generic reader returns (CharSequence, GenericArray, Map) to plain Java. */
final class AvroValues {

  private AvroValues() {}

  static String string(Object value) {
    return value == null ? null : value.toString();
  }

  static List<String> strings(Object value) {
    return list(value, AvroValues::string);
  }

  static <T> List<T> list(Object value, Function<Object, T> element) {
    if (value == null) {
      return null;
    }
    var result = new ArrayList<T>();
    for (Object o : (Collection<?>) value) {
      result.add(element.apply(o));
    }
    return result;
  }

  static <T> Map<String, T> map(Object value, Function<Object, T> element) {
    if (value == null) {
      return null;
    }
    var result = new LinkedHashMap<String, T>();
    ((Map<?, ?>) value).forEach((k, v) -> result.put(k.toString(), element.apply(v)));
    return result;
  }

  static Long toLong(Object value) {
    return value == null ? null : ((Number) value).longValue();
  }

  static Double toDouble(Object value) {
    return value == null ? null : ((Number) value).doubleValue();
  }

  static int intOr(Object value, int fallback) {
    return value == null ? fallback : ((Number) value).intValue();
  }
}
