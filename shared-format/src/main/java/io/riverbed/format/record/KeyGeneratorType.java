package io.riverbed.format.record;

import io.riverbed.format.InvalidTableException;
import java.util.List;
import java.util.Locale;

/**
 * The built-in Hudi key generators Riverbed reproduces, with the class names Hudi stores in
 * {@code hoodie.properties} ({@code hoodie.table.keygenerator.class}).
 *
 * <p>In Hudi 0.15 the three produce keys the same way and differ only in which fields they accept:
 * one record key field gives the plain value, several give {@code f1:v1,f2:v2} (even for
 * {@code ComplexKeyGenerator} with one field: the HUDI-7001 change shipped in 0.14.1 and 0.15.0).
 */
public enum KeyGeneratorType {
  /** One record key field, one partition field ({@code org.apache.hudi.keygen.SimpleKeyGenerator}). */
  SIMPLE("org.apache.hudi.keygen.SimpleKeyGenerator", "org.apache.hudi.keygen.SimpleAvroKeyGenerator"),
  /** Several record key and/or partition fields. */
  COMPLEX("org.apache.hudi.keygen.ComplexKeyGenerator", "org.apache.hudi.keygen.ComplexAvroKeyGenerator"),
  /** No partition fields; files sit in the table base path. */
  NON_PARTITION("org.apache.hudi.keygen.NonpartitionedKeyGenerator", "org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator");

  private final String className;
  private final String avroClassName;

  KeyGeneratorType(String className, String avroClassName) {
    this.className = className;
    this.avroClassName = avroClassName;
  }

  /** The class name Spark writers put in {@code hoodie.table.keygenerator.class}. */
  public String className() {
    return className;
  }

  /** The Avro variant's class name (what Flink writers put in {@code hoodie.properties}). */
  public String avroClassName() {
    return avroClassName;
  }

  /**
   * Hudi's {@code KeyGenUtils.inferKeyGeneratorType}: no partition field ⇒ {@link #NON_PARTITION};
   * one partition field and at most one record key field ⇒ {@link #SIMPLE}; otherwise
   * {@link #COMPLEX}. Nested field names ({@code a.b}) count as one field: a nested single key
   * still infers {@code SimpleKeyGenerator}.
   */
  public static KeyGeneratorType infer(List<String> recordKeyFields, List<String> partitionFields) {
    if (partitionFields.isEmpty()) {
      return NON_PARTITION;
    }
    if (partitionFields.size() == 1 && recordKeyFields.size() <= 1) {
      return SIMPLE;
    }
    return COMPLEX;
  }

  /** The type for a key generator class name (Spark or Avro variant) or a type name such as {@code SIMPLE}. */
  public static KeyGeneratorType fromName(String name) {
    String trimmed = name.trim();
    for (KeyGeneratorType type : values()) {
      if (type.className.equals(trimmed) || type.avroClassName.equals(trimmed)
          || type.name().equals(trimmed.toUpperCase(Locale.ROOT))) {
        return type;
      }
    }
    if ("NON_PARTITIONED".equalsIgnoreCase(trimmed)) {
      return NON_PARTITION;
    }
    throw new InvalidTableException("key generator '" + trimmed + "' is not supported; Riverbed supports "
        + "SimpleKeyGenerator, ComplexKeyGenerator and NonpartitionedKeyGenerator (and their Avro variants)");
  }
}
