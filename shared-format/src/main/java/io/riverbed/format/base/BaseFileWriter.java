package io.riverbed.format.base;

import io.riverbed.format.InvalidRecordException;
import io.riverbed.format.TableException;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.record.TableSchemas;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one parquet base file through parquet-avro the way Hudi 0.15's Avro writer does: root
 * message named after the Avro record's full name, {@code parquet.avro.schema} in the footer, and on
 * close the bloom filter over the record keys plus the min/max record key (format doc §4).
 *
 * <p>Records must use the writer schema, which starts with the five meta fields when meta fields are
 * populated; the record key is taken from {@code _hoodie_record_key}. Values of logical types may be
 * raw (long micros, int days, bytes) or converted ({@code Instant}, {@code LocalDate},
 * {@code BigDecimal}).
 *
 * <p>Use {@link #finish()} to complete the file, or {@link #abort()} to delete it; {@link #close()}
 * finishes a file that was neither. Not thread-safe.
 */
public final class BaseFileWriter implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(BaseFileWriter.class);
  private static final int RECORD_KEY_POS = MetaFields.ALL.indexOf(MetaFields.RECORD_KEY);
  /** Meta fields whose every value in a base file differs, written without a dictionary. */
  static final List<String> UNIQUE_META_FIELDS = List.of(MetaFields.RECORD_KEY, MetaFields.COMMIT_SEQNO);

  /** What a finished file holds. Min/max keys are null when the file has no keys. */
  public record Result(Path path, long recordCount, long fileSizeBytes, String minRecordKey, String maxRecordKey) {}

  private final FileSystem fs;
  private final Path path;
  private final Schema schema;
  private final MessageType parquetSchema;
  private final ParquetWriter<Object> writer;
  private final FooterWriteSupport writeSupport;
  private final boolean trackKeys;
  /** Schema instances already found equal to {@link #schema}: a merge alternates the stored records' and the new ones'. */
  private final Set<Schema> acceptedSchemas = Collections.newSetFromMap(new IdentityHashMap<>());
  private long recordCount;
  private Result result;
  private boolean aborted;

  private BaseFileWriter(FileSystem fs, Path path, Schema schema, MessageType parquetSchema, ParquetWriter<Object> writer,
      FooterWriteSupport writeSupport, boolean trackKeys) {
    this.fs = fs;
    this.path = path;
    this.schema = schema;
    this.parquetSchema = parquetSchema;
    this.writer = writer;
    this.writeSupport = writeSupport;
    this.trackKeys = trackKeys;
  }

  /**
   * Creates the file at {@code path} (which must not exist) for records of {@code schema}.
   *
   * @throws IllegalArgumentException when meta fields are to be populated and {@code schema} does
   *     not start with them
   */
  public static BaseFileWriter create(Configuration conf, Path path, Schema schema, BaseFileOptions options) {
    if (options.populateMetaFields() && !TableSchemas.hasMetaFields(schema)) {
      throw new IllegalArgumentException("writer schema for " + path + " must start with the Hudi meta fields "
          + MetaFields.ALL + " (see TableSchemas.addMetaFields): " + schema);
    }
    Configuration writeConf = writeConf(conf, options.writeOldListStructure());
    MessageType parquetSchema = new AvroSchemaConverter(writeConf).convert(schema);
    BloomFilter bloom = options.populateMetaFields() ? options.newBloomFilter() : null;
    var writeSupport = new FooterWriteSupport(parquetSchema, schema, bloom);
    try {
      FileSystem fs = path.getFileSystem(writeConf);
      Builder builder = new Builder(HadoopOutputFile.fromPath(path, writeConf), writeSupport);
      builder.withConf(writeConf)
          .withWriteMode(ParquetFileWriter.Mode.CREATE)
          .withCompressionCodec(options.compression())
          .withRowGroupSize(options.rowGroupSize())
          .withPageSize(options.pageSize())
          .withDictionaryPageSize(options.pageSize())
          .withDictionaryEncoding(options.dictionaryEnabled())
          .withValidation(false)
          .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0);
      if (options.populateMetaFields()) {
        // a file holds each key once, and sequence numbers never repeat: a dictionary of them only
        // costs the writer its lookups until Parquet falls back to plain values at the first page
        UNIQUE_META_FIELDS.forEach(field -> builder.withDictionaryEncoding(field, false));
      }
      ParquetWriter<Object> writer = builder.build();
      LOG.debug("Opened base file {} ({}, {})", path, options.compression(), parquetSchema.getName());
      return new BaseFileWriter(fs, path, schema, parquetSchema, writer, writeSupport, options.populateMetaFields());
    } catch (IOException e) {
      throw new TableException("cannot create base file " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@code conf}, or a copy of it with the list structure the options ask for: a copy costs as much
   * as the properties it holds, so it is made only where the setting differs (parquet-avro's own
   * default, when the key is unset, is the old structure).
   */
  private static Configuration writeConf(Configuration conf, boolean writeOldListStructure) {
    if (conf.getBoolean(BaseFileOptions.WRITE_OLD_LIST_STRUCTURE, true) == writeOldListStructure) {
      return conf;
    }
    Configuration copy = new Configuration(conf);
    copy.setBoolean(BaseFileOptions.WRITE_OLD_LIST_STRUCTURE, writeOldListStructure);
    return copy;
  }

  /** Writes a record whose {@code _hoodie_record_key} is set (or any record when meta fields are off). */
  public void write(GenericRecord record) {
    String key = null;
    if (trackKeys) {
      Object value = record.get(RECORD_KEY_POS);
      if (value == null || value.toString().isEmpty()) {
        throw new InvalidRecordException("record for base file " + path + " has no " + MetaFields.RECORD_KEY
            + ": " + truncate(record));
      }
      key = value.toString();
    }
    write(key, record);
  }

  /** Writes {@code record}, indexing {@code recordKey} in the bloom filter and key range. */
  public void write(String recordKey, GenericRecord record) {
    checkOpen();
    checkSchema(record);
    append(recordKey, record);
  }

  /**
   * Writes the current row of {@code rows} as it was read, indexing {@code recordKey} in the bloom
   * filter and key range: the same bytes as the Avro record of that row would give.
   *
   * @param rows rows opened for this file's {@link #parquetSchema}
   */
  public void copy(String recordKey, BaseFileRows rows) {
    checkOpen();
    if (rows.schema() != parquetSchema && !rows.schema().equals(parquetSchema)) {
      throw new IllegalArgumentException("rows of schema " + rows.schema() + " cannot be copied into base file " + path
          + " of schema " + parquetSchema);
    }
    append(recordKey, rows);
  }

  private void checkOpen() {
    if (result != null || aborted) {
      throw new IllegalStateException("base file " + path + " is already " + (aborted ? "aborted" : "finished"));
    }
  }

  private void append(String recordKey, Object row) {
    try {
      writer.write(row);
    } catch (IOException | RuntimeException e) {
      throw new TableException("cannot write record " + recordKey + " to base file " + path + ": " + e.getMessage(), e);
    }
    if (trackKeys) {
      writeSupport.addKey(recordKey);
    }
    recordCount++;
  }

  private void checkSchema(GenericRecord record) {
    Schema recordSchema = record.getSchema();
    if (recordSchema != schema && !acceptedSchemas.contains(recordSchema)) {
      if (!recordSchema.equals(schema)) {
        throw new InvalidRecordException("record schema " + recordSchema.getFullName() + " differs from the writer "
            + "schema of base file " + path + ": " + truncate(record));
      }
      if (acceptedSchemas.size() >= 8) {
        acceptedSchemas.clear();
      }
      acceptedSchemas.add(recordSchema);
    }
  }

  public Path path() {
    return path;
  }

  public Schema schema() {
    return schema;
  }

  /** The file's Parquet schema, as parquet-avro converts {@link #schema()}. */
  public MessageType parquetSchema() {
    return parquetSchema;
  }

  public long recordCount() {
    return recordCount;
  }

  /** Bytes written so far plus buffered, an estimate of the final size for file sizing. */
  public long dataSize() {
    return writer.getDataSize();
  }

  /** Completes the file: writes the footer with the bloom filter and key range. Idempotent. */
  public Result finish() {
    if (aborted) {
      throw new IllegalStateException("base file " + path + " was aborted");
    }
    if (result != null) {
      return result;
    }
    try {
      writer.close();
      long size = fs.getFileStatus(path).getLen();
      result = new Result(path, recordCount, size, writeSupport.minKey, writeSupport.maxKey);
      LOG.debug("Closed base file {}: {} records, {} bytes", path, recordCount, size);
      return result;
    } catch (IOException e) {
      throw new TableException("cannot finish base file " + path + ": " + e.getMessage(), e);
    }
  }

  /** Stops writing and deletes the file. Safe to call after a failure; a finished file is deleted too. */
  public void abort() {
    if (aborted) {
      return;
    }
    aborted = true;
    TableException failure = null;
    if (result == null) {
      try {
        writer.close();
      } catch (IOException | RuntimeException e) {
        failure = new TableException("cannot close aborted base file " + path, e);
      }
    }
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      var deleteFailure = new TableException("cannot delete aborted base file " + path, e);
      if (failure != null) {
        deleteFailure.addSuppressed(failure);
      }
      throw deleteFailure;
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() {
    if (!aborted && result == null) {
      finish();
    }
  }

  private static String truncate(GenericRecord record) {
    String text = String.valueOf(record);
    return text.length() <= 500 ? text : text.substring(0, 500) + "...(truncated)";
  }

  /** The data model: raw values and java.time / BigDecimal values of logical types are both accepted. */
  private static GenericData writeModel() {
    var model = new GenericData();
    model.addLogicalTypeConversion(new Conversions.DecimalConversion());
    model.addLogicalTypeConversion(new Conversions.UUIDConversion());
    model.addLogicalTypeConversion(new TimeConversions.DateConversion());
    model.addLogicalTypeConversion(new TimeConversions.TimeMillisConversion());
    model.addLogicalTypeConversion(new TimeConversions.TimeMicrosConversion());
    model.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
    model.addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
    model.addLogicalTypeConversion(new TimeConversions.LocalTimestampMillisConversion());
    model.addLogicalTypeConversion(new TimeConversions.LocalTimestampMicrosConversion());
    return model;
  }

  /**
   * parquet-avro's write support plus Hudi's footer entries; it also writes copied rows
   * ({@link BaseFileRows}) to the same record consumer, as the values they were read with.
   */
  private static final class FooterWriteSupport extends AvroWriteSupport<Object> {
    private final BloomFilter bloom;
    private RecordConsumer consumer;
    private String minKey;
    private String maxKey;

    FooterWriteSupport(MessageType parquetSchema, Schema avroSchema, BloomFilter bloom) {
      super(parquetSchema, avroSchema, writeModel());
      this.bloom = bloom;
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      consumer = recordConsumer;
      super.prepareForWrite(recordConsumer);
    }

    @Override
    public void write(Object record) {
      if (record instanceof BaseFileRows rows) {
        rows.writeTo(consumer);
      } else {
        super.write(record);
      }
    }

    void addKey(String key) {
      bloom.add(key);
      if (minKey == null || minKey.compareTo(key) > 0) {
        minKey = key;
      }
      if (maxKey == null || maxKey.compareTo(key) < 0) {
        maxKey = key;
      }
    }

    @Override
    public WriteSupport.FinalizedWriteContext finalizeWrite() {
      Map<String, String> extra = new HashMap<>(super.finalizeWrite().getExtraMetaData());
      if (bloom != null) {
        extra.put(FooterKeys.BLOOM_FILTER, bloom.serializeToString());
        if (bloom.type() == BloomFilterType.DYNAMIC_V0) {
          extra.put(FooterKeys.BLOOM_FILTER_TYPE_CODE, bloom.type().name());
        }
        if (minKey != null && maxKey != null) {
          extra.put(FooterKeys.MIN_RECORD_KEY, minKey);
          extra.put(FooterKeys.MAX_RECORD_KEY, maxKey);
        }
      }
      return new WriteSupport.FinalizedWriteContext(extra);
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Object, Builder> {
    private final WriteSupport<Object> writeSupport;

    Builder(OutputFile file, WriteSupport<Object> writeSupport) {
      super(file);
      this.writeSupport = writeSupport;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Object> getWriteSupport(Configuration conf) {
      return writeSupport;
    }
  }
}
