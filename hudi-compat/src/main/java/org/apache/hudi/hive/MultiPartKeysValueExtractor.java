package org.apache.hudi.hive;

/**
 * Apache Hudi's partition value extractor for multi-level partition paths, here so that
 * {@code classOf[MultiPartKeysValueExtractor].getName} compiles as the value of
 * {@code hoodie.datasource.hive_sync.partition_extractor_class}. Riverbed's Hive sync reads the name and
 * applies Hudi's rule itself (each path segment is a value, {@code key=value} segments give the value);
 * the class has no behaviour and nothing instantiates it.
 */
public final class MultiPartKeysValueExtractor {
  private MultiPartKeysValueExtractor() {}
}
