package io.riverbed.spark;

import java.io.Serializable;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;

/**
 * Whether and how base files go through Spark's vectorized Parquet reader, from the session's
 * own switches ({@code spark.sql.parquet.enableVectorizedReader},
 * {@code spark.sql.parquet.enableNestedColumnVectorizedReader},
 * {@code spark.sql.parquet.columnarReaderBatchSize}, {@code spark.sql.columnVector.offheap.enabled}).
 */
record VectorizedSettings(boolean enabled, boolean nested, int batchSize, boolean offHeap, String sessionTimeZone,
    boolean caseSensitive, int maxColumnarFields, boolean wholeStage) implements Serializable {

  static VectorizedSettings fromSession(SQLConf conf) {
    return new VectorizedSettings(conf.parquetVectorizedReaderEnabled(), conf.parquetVectorizedReaderNestedColumnEnabled(),
        conf.parquetVectorizedReaderBatchSize(), conf.offHeapColumnVectorEnabled(), conf.sessionLocalTimeZone(),
        conf.caseSensitiveAnalysis(), conf.wholeStageMaxNumFields(), conf.wholeStageEnabled());
  }

  /**
   * True if every column can be decoded by the vectorized reader as the table types it: atomic
   * types and (with nested reading on) structs of them. Binary, arrays and maps go row by row
   * (Avro fixed and the 2-level lists parquet-avro writes are not worth the risk).
   */
  boolean canRead(StructType schema) {
    if (!enabled) {
      return false;
    }
    for (StructField f : schema.fields()) {
      if (!supported(f.dataType(), false)) {
        return false;
      }
    }
    return true;
  }

  private boolean supported(DataType t, boolean inStruct) {
    if (t instanceof StructType s) {
      if (!nested) {
        return false;
      }
      for (StructField f : s.fields()) {
        if (!supported(f.dataType(), true)) {
          return false;
        }
      }
      return true;
    }
    return !(t instanceof ArrayType || t instanceof MapType || t instanceof BinaryType || t instanceof NullType
        || t instanceof TimestampNTZType);
  }

  /**
   * True if {@code split} is read by the vectorized reader: a base file without logs, outside
   * incremental queries, with every column of {@code schema} readable.
   */
  boolean reads(SliceSplit split, StructType schema) {
    return split.baseOnly() && !split.incremental() && canRead(schema);
  }

  /** Columnar batches go to Spark only where Spark's own Parquet scan would hand them over. */
  boolean columnarOutput(StructType schema) {
    return canRead(schema) && wholeStage && schema.size() <= maxColumnarFields;
  }
}
