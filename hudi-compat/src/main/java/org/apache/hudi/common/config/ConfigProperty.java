package org.apache.hudi.common.config;

import java.util.Objects;

/**
 * An option of Apache Hudi's Spark API by key and default, as Hudi's {@code ConfigProperty} is, so
 * that code written against Hudi ({@code DataSourceWriteOptions.TABLE_TYPE.key()}, or {@code .key} in
 * Scala) runs with Riverbed. Riverbed reads its options from the same keys; this type only names them.
 *
 * @param <T> the type of the default value
 */
public final class ConfigProperty<T> {
  private final String key;
  private final T defaultValue;

  private ConfigProperty(String key, T defaultValue) {
    this.key = Objects.requireNonNull(key, "key");
    this.defaultValue = defaultValue;
  }

  /** Starts a property with this key; finish it with {@link Builder#defaultValue} or {@link Builder#noDefaultValue}. */
  public static Builder key(String key) {
    return new Builder(key);
  }

  public String key() {
    return key;
  }

  /** Hudi 0.15's default value, or null when the option has none ({@link #hasDefaultValue()} false). */
  public T defaultValue() {
    return defaultValue;
  }

  public boolean hasDefaultValue() {
    return defaultValue != null;
  }

  @Override
  public String toString() {
    return key + (hasDefaultValue() ? " (default " + defaultValue + ")" : "");
  }

  /** The key of a property whose default is not given yet. */
  public static final class Builder {
    private final String key;

    private Builder(String key) {
      this.key = key;
    }

    public <T> ConfigProperty<T> defaultValue(T value) {
      return new ConfigProperty<>(key, Objects.requireNonNull(value, "defaultValue"));
    }

    public <T> ConfigProperty<T> noDefaultValue() {
      return new ConfigProperty<>(key, null);
    }
  }
}
