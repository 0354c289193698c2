package io.riverbed.format.base;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.TableException;
import io.riverbed.format.record.MetaFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads a parquet base file: footer metadata (bloom filter, key range, Avro schema) and records as
 * Avro {@link GenericRecord}s with raw values for logical types (long micros, int days, decimal
 * bytes/fixed), strings as {@code Utf8}, as Hudi's Avro readers see them.
 *
 * <p>{@link #open} reads only the footer; each {@link #records} call opens the file again and the
 * returned iterator must be closed.
 */
public final class BaseFileReader {
  /** Lexicographic min and max record key of a file. */
  public record KeyRange(String min, String max) {
    public boolean contains(String key) {
      return min.compareTo(key) <= 0 && max.compareTo(key) >= 0;
    }
  }

  private final Configuration conf;
  private final Path path;
  private final Map<String, String> footer;
  private final MessageType parquetSchema;
  private final long recordCount;
  private final List<BlockMetaData> rowGroups;
  private Schema avroSchema;
  private BloomFilter bloomFilter;
  private boolean bloomFilterRead;

  private BaseFileReader(Configuration conf, Path path, Map<String, String> footer, MessageType parquetSchema,
      long recordCount, List<BlockMetaData> rowGroups) {
    this.conf = conf;
    this.rowGroups = rowGroups;
    this.path = path;
    this.footer = footer;
    this.parquetSchema = parquetSchema;
    this.recordCount = recordCount;
  }

  /** Reads the footer of the base file at {@code path}. */
  public static BaseFileReader open(Configuration conf, Path path) {
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
      ParquetMetadata metadata = reader.getFooter();
      long rows = 0;
      for (BlockMetaData block : metadata.getBlocks()) {
        rows += block.getRowCount();
      }
      return new BaseFileReader(conf, path,
          Collections.unmodifiableMap(metadata.getFileMetaData().getKeyValueMetaData()),
          metadata.getFileMetaData().getSchema(), rows, List.copyOf(metadata.getBlocks()));
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException("cannot read parquet footer of base file " + path + ": " + e.getMessage(), e);
    }
  }

  public Path path() {
    return path;
  }

  /** All key/value metadata of the footer. */
  public Map<String, String> footer() {
    return footer;
  }

  public MessageType parquetSchema() {
    return parquetSchema;
  }

  public long recordCount() {
    return recordCount;
  }

  /** The number of Parquet row groups in the file. */
  public int rowGroupCount() {
    return rowGroups.size();
  }

  /**
   * The number of row groups whose min/max/null-count statistics do not rule out a row passing
   * {@code predicate} (its columns must have the physical types this file stores them with).
   */
  public int rowGroupsMatching(FilterPredicate predicate) {
    return RowGroupFilter.filterRowGroups(FilterCompat.get(predicate), rowGroups, parquetSchema).size();
  }

  /**
   * The file's Avro schema: {@code parquet.avro.schema} (or the older {@code avro.schema}) when
   * present, else converted from the parquet schema (files written by Spark's row writer).
   */
  public synchronized Schema avroSchema() {
    if (avroSchema == null) {
      String json = footer.getOrDefault(FooterKeys.AVRO_SCHEMA, footer.get(FooterKeys.LEGACY_AVRO_SCHEMA));
      if (json != null) {
        try {
          avroSchema = new Schema.Parser().setValidateDefaults(false).parse(json);
        } catch (SchemaParseException e) {
          throw new CorruptFileException("base file " + path + " has an invalid " + FooterKeys.AVRO_SCHEMA, e);
        }
      } else {
        avroSchema = new AvroSchemaConverter(conf).convert(parquetSchema);
      }
    }
    return avroSchema;
  }

  /** The min/max record keys from the footer; empty when the writer did not record them. */
  public Optional<KeyRange> keyRange() {
    String min = footer.get(FooterKeys.MIN_RECORD_KEY);
    String max = footer.get(FooterKeys.MAX_RECORD_KEY);
    return min == null || max == null ? Optional.empty() : Optional.of(new KeyRange(min, max));
  }

  /**
   * The bloom filter over the record keys ({@code org.apache.hudi.bloomfilter}, falling back to
   * {@code com.uber.hoodie.bloomfilter}); type from {@code hoodie_bloom_filter_type_code}, SIMPLE
   * when absent. Empty when the file has none.
   */
  public synchronized Optional<BloomFilter> bloomFilter() {
    if (!bloomFilterRead) {
      String serialized = footer.getOrDefault(FooterKeys.BLOOM_FILTER, footer.get(FooterKeys.LEGACY_BLOOM_FILTER));
      if (serialized != null) {
        String code = footer.get(FooterKeys.BLOOM_FILTER_TYPE_CODE);
        BloomFilterType type = code == null || code.isEmpty() ? BloomFilterType.SIMPLE : BloomFilterType.parse(code);
        try {
          bloomFilter = BloomFilter.fromString(serialized, type);
        } catch (CorruptFileException e) {
          throw new CorruptFileException("base file " + path + ": " + e.getMessage(), e);
        }
      }
      bloomFilterRead = true;
    }
    return Optional.ofNullable(bloomFilter);
  }

  /**
   * Whether the file may hold {@code recordKey}: false only when the key range or the bloom filter
   * excludes it; true when the file has neither.
   */
  public boolean mightContain(String recordKey) {
    Optional<KeyRange> range = keyRange();
    if (range.isPresent() && !range.get().contains(recordKey)) {
      return false;
    }
    return bloomFilter().map(filter -> filter.mightContain(recordKey)).orElse(true);
  }

  /** All records with the file's own schema. */
  public CloseableIterator<GenericRecord> records() {
    return records(avroSchema());
  }

  /**
   * Records read into {@code readerSchema}: only the top-level columns it names are read; fields
   * the file lacks get the reader schema's default (schema evolution by added nullable fields).
   */
  public CloseableIterator<GenericRecord> records(Schema readerSchema) {
    return records(readerSchema, FilterCompat.NOOP);
  }

  /**
   * All records of the base file at {@code path} read into {@code readerSchema}, as
   * {@link #records(Schema)} does, without a separate footer read first.
   */
  public static CloseableIterator<GenericRecord> records(Configuration conf, Path path, Schema readerSchema) {
    return read(conf, path, readerSchema, FilterCompat.NOOP, true, false);
  }

  /**
   * As {@link #records(Configuration, Path, Schema)}, with strings (and map keys) as Avro's
   * {@link org.apache.avro.util.Utf8}, for a rewrite (a merge, a compaction) that writes most
   * records back unchanged: parquet-avro then writes their bytes as they are, where a
   * {@code String} is decoded on read and encoded again on write.
   */
  public static CloseableIterator<GenericRecord> recordsToRewrite(Configuration conf, Path path, Schema readerSchema) {
    return read(conf, path, readerSchema, FilterCompat.NOOP, true, true);
  }

  /**
   * Records read into {@code readerSchema}, with a Parquet filter: row groups whose statistics
   * (or dictionaries) rule the filter out are skipped, and parquet-mr drops the records that fail
   * it. The filter's columns must have the physical types this file stores them with.
   */
  public CloseableIterator<GenericRecord> records(Schema readerSchema, FilterCompat.Filter filter) {
    return read(readerSchema, filter, true);
  }

  /**
   * Records read into {@code readerSchema}, skipping the row groups and pages whose statistics or
   * dictionaries show that no row can match {@code rowGroupFilter}. Rows of the groups and pages
   * kept are all returned (no record-level filtering), as Spark's Parquet reader does by default;
   * callers filter rows themselves where they need to.
   */
  public CloseableIterator<GenericRecord> recordsInMatchingRowGroups(Schema readerSchema, FilterCompat.Filter rowGroupFilter) {
    return read(readerSchema, rowGroupFilter, false);
  }

  /**
   * As {@link #recordsInMatchingRowGroups(Schema, FilterCompat.Filter)} for the base file at
   * {@code path}, without a separate footer read first: the Parquet reader reads the footer once
   * and the columns to read are chosen from the schema it finds there.
   */
  public static CloseableIterator<GenericRecord> recordsInMatchingRowGroups(Configuration conf, Path path,
      Schema readerSchema, FilterCompat.Filter rowGroupFilter) {
    return read(conf, path, readerSchema, rowGroupFilter, false, false);
  }

  private CloseableIterator<GenericRecord> read(Schema readerSchema, FilterCompat.Filter filter, boolean recordLevel) {
    return read(conf, path, readerSchema, filter, recordLevel, false);
  }

  private static CloseableIterator<GenericRecord> read(Configuration conf, Path path, Schema readerSchema,
      FilterCompat.Filter filter, boolean recordLevel, boolean utf8Strings) {
    Set<String> wanted = readerSchema.getFields().stream().map(Schema.Field::name).collect(Collectors.toSet());
    Configuration readConf = new Configuration(conf);
    AvroReadSupport.setAvroReadSchema(readConf, readerSchema);
    if (utf8Strings) {
      // parquet-avro's current converter keeps strings as Utf8; its default, compatible one makes Strings
      readConf.setBoolean(AvroReadSupport.AVRO_COMPATIBILITY, false);
    }
    try {
      ParquetReader<GenericRecord> reader = new ReaderBuilder(HadoopInputFile.fromPath(path, readConf), wanted)
          .withConf(readConf)
          .withFilter(filter)
          .useRecordFilter(recordLevel)
          .build();
      return new RecordIterator(reader, path);
    } catch (IOException e) {
      throw new TableException("cannot open base file " + path + " for reading: " + e.getMessage(), e);
    }
  }

  /** The {@code _hoodie_record_key} of every record, in file order. */
  public List<String> readRecordKeys() {
    Schema keyOnly = Schema.createRecord(avroSchema().getName(), null, avroSchema().getNamespace(), false);
    Schema.Field keyField = avroSchema().getField(MetaFields.RECORD_KEY);
    if (keyField == null) {
      throw new CorruptFileException("base file " + path + " has no " + MetaFields.RECORD_KEY + " column");
    }
    keyOnly.setFields(List.of(new Schema.Field(keyField.name(), keyField.schema(), keyField.doc(), keyField.defaultVal())));
    var keys = new ArrayList<String>((int) Math.min(recordCount, Integer.MAX_VALUE));
    try (CloseableIterator<GenericRecord> records = records(keyOnly)) {
      while (records.hasNext()) {
        Object key = records.next().get(0);
        keys.add(key == null ? null : key.toString());
      }
    }
    return keys;
  }

  /**
   * parquet-avro's read support reading only the top-level columns named {@code wanted}, chosen
   * from the file's own parquet schema when the reader has read the footer.
   */
  private static final class ProjectingReadSupport extends AvroReadSupport<GenericRecord> {
    private final Set<String> wanted;

    ProjectingReadSupport(Set<String> wanted) {
      super(GenericData.get());
      this.wanted = wanted;
    }

    @Override
    public ReadSupport.ReadContext init(Configuration configuration, Map<String, String> keyValueMetaData,
        MessageType fileSchema) {
      ReadSupport.ReadContext context = super.init(configuration, keyValueMetaData, fileSchema);
      List<Type> columns = new ArrayList<>();
      for (Type column : fileSchema.getFields()) {
        if (wanted.contains(column.getName())) {
          columns.add(column);
        }
      }
      return new ReadSupport.ReadContext(new MessageType(fileSchema.getName(), columns), context.getReadSupportMetadata());
    }
  }

  private static final class ReaderBuilder extends ParquetReader.Builder<GenericRecord> {
    private final Set<String> wanted;

    ReaderBuilder(InputFile file, Set<String> wanted) {
      super(file);
      this.wanted = wanted;
    }

    @Override
    protected ReadSupport<GenericRecord> getReadSupport() {
      return new ProjectingReadSupport(wanted);
    }
  }

  private static final class RecordIterator implements CloseableIterator<GenericRecord> {
    private final ParquetReader<GenericRecord> reader;
    private final Path path;
    private GenericRecord next;
    private boolean done;

    RecordIterator(ParquetReader<GenericRecord> reader, Path path) {
      this.reader = reader;
      this.path = path;
    }

    @Override
    public boolean hasNext() {
      if (next == null && !done) {
        try {
          next = reader.read();
        } catch (IOException | RuntimeException e) {
          throw new CorruptFileException("cannot read records of base file " + path + ": " + e.getMessage(), e);
        }
        done = next == null;
      }
      return next != null;
    }

    @Override
    public GenericRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException("no more records in " + path);
      }
      GenericRecord record = next;
      next = null;
      return record;
    }

    @Override
    public void close() {
      try {
        reader.close();
      } catch (IOException e) {
        throw new TableException("cannot close base file " + path, e);
      }
    }
  }
}
