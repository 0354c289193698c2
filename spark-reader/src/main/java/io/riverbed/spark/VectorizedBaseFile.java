package io.riverbed.spark;

import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Option;

/**
 * A base file decoded by Spark's {@link VectorizedParquetRecordReader} into columnar batches of
 * a schema (the scan's read schema, or for a merge that and the columns the merge needs), with the
 * pushed filters as a Parquet predicate when asked (row groups skipped by
 * statistics and dictionaries, pages by column indexes). Files written by parquet-avro carry no
 * Spark metadata, so dates and timestamps are read as written (CORRECTED, no rebasing). A file
 * written before a column was widened is read in its own types and promoted ({@link WidenedColumns}).
 */
final class VectorizedBaseFile implements PartitionReader<ColumnarBatch> {
  private static final String REQUESTED_SCHEMA = "org.apache.spark.sql.parquet.row.requested_schema";

  private final ReadContext context;
  private final SliceSplit split;
  private final StructType schema;
  private final Filter[] filters;
  private VectorizedParquetRecordReader reader;
  private WidenedColumns widened;

  /**
   * @param schema the columns to decode (of the table's Spark schema)
   * @param filters the pushed filters to skip row groups and pages by: all of the scan's for a
   *     file whose rows no merge changes, only those a merge cannot turn for a merged one
   */
  VectorizedBaseFile(ReadContext context, SliceSplit split, StructType schema, Filter[] filters) {
    this.context = context;
    this.split = split;
    this.schema = schema;
    this.filters = filters;
  }

  /**
   * Opens the reader: the footer is read once, with the row groups of this split's byte range,
   * and serves both the pushed-down predicate (built for the file's own Parquet schema) and the
   * vectorized reader, as Spark's own Parquet scan does.
   */
  private VectorizedParquetRecordReader reader() throws IOException {
    if (reader == null) {
      Path file = new Path(split.baseFile());
      long end = split.byteStart() + split.byteLength();
      ParquetMetadata footer;
      try {
        footer = ParquetFileReader.readFooter(HadoopInputFile.fromPath(file, context.hadoopConf()),
            ParquetMetadataConverter.range(split.byteStart(), end));
      } catch (IOException | RuntimeException e) {
        throw new CorruptFileException("cannot read parquet footer of base file " + file + ": " + e.getMessage(), e);
      }
      Configuration conf = context.vectorizedConf(schema,
          ParquetPredicates.of(filters, footer.getFileMetaData().getSchema()));
      widened = WidenedColumns.of(schema, footer.getFileMetaData().getSchema(),
          context.vectorized.caseSensitive());
      if (widened != null) {
        conf = new Configuration(conf);
        conf.set(REQUESTED_SCHEMA, widened.fileSchema().json());
      }
      VectorizedParquetRecordReader r = new VectorizedParquetRecordReader(context.vectorized.offHeap(),
          context.vectorized.batchSize());
      try {
        r.initialize(new FileSplit(file, split.byteStart(), split.byteLength(), new String[0]),
            new TaskAttemptContextImpl(conf, new TaskAttemptID()), Option.apply(footer));
        r.initBatch(new StructType(), new GenericInternalRow(0));
        r.enableReturningBatches();
      } catch (IOException | InterruptedException | RuntimeException e) {
        r.close();
        throw new CorruptFileException("cannot read base file " + file + " with Spark's vectorized Parquet reader: "
            + e.getMessage(), e);
      }
      reader = r;
    }
    return reader;
  }

  /** The settings Spark's own Parquet scan puts in the Hadoop configuration for its readers. */
  static Configuration readConf(Configuration base, StructType readSchema, VectorizedSettings settings) {
    Configuration conf = new Configuration(base);
    conf.set(ParquetInputFormat.READ_SUPPORT_CLASS, ParquetReadSupport.class.getName());
    conf.set(REQUESTED_SCHEMA, readSchema.json());
    conf.set("spark.sql.session.timeZone", settings.sessionTimeZone());
    conf.setBoolean("spark.sql.caseSensitive", settings.caseSensitive());
    conf.setBoolean("spark.sql.optimizer.nestedSchemaPruning.enabled", true);
    conf.setBoolean("spark.sql.parquet.binaryAsString", false);
    conf.setBoolean("spark.sql.parquet.int96AsTimestamp", true);
    conf.setBoolean("spark.sql.parquet.inferTimestampNTZ.enabled", true);
    conf.setBoolean("spark.sql.legacy.parquet.nanosAsLong", false);
    return conf;
  }

  @Override
  public boolean next() throws IOException {
    return reader().nextKeyValue();
  }

  @Override
  public ColumnarBatch get() {
    ColumnarBatch batch = (ColumnarBatch) reader.getCurrentValue();
    return widened == null ? batch : widened.promote(batch);
  }

  @Override
  public void close() throws IOException {
    if (reader != null) {
      reader.close();
    }
  }

  /** The same file as rows (for scans that mix base-only and merged slices). */
  PartitionReader<InternalRow> rows() {
    return new PartitionReader<>() {
      private Iterator<InternalRow> batchRows;
      private InternalRow current;

      @Override
      public boolean next() throws IOException {
        while (batchRows == null || !batchRows.hasNext()) {
          if (!VectorizedBaseFile.this.next()) {
            return false;
          }
          batchRows = VectorizedBaseFile.this.get().rowIterator();
        }
        current = batchRows.next();
        return true;
      }

      @Override
      public InternalRow get() {
        return current;
      }

      @Override
      public void close() throws IOException {
        VectorizedBaseFile.this.close();
      }
    };
  }
}
