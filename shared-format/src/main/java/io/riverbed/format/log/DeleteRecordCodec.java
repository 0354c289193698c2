package io.riverbed.format.log;

import io.riverbed.format.record.AvroBinaryCheck;
import io.riverbed.format.InvalidRecordException;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro binary encoding of {@code org.apache.hudi.avro.model.HoodieDeleteRecordList}, the payload
 * of version-3 delete blocks. No schema is stored in the file, so field order and the order of
 * the twelve {@code orderingVal} union branches must match Hudi 0.15 exactly.
 */
final class DeleteRecordCodec {

  private static final String NS = "org.apache.hudi.avro.model";

  static final Schema SCHEMA = new Schema.Parser().parse("""
      {"type": "record", "name": "HoodieDeleteRecordList", "namespace": "%1$s",
       "fields": [{"name": "deleteRecordList", "type": {"type": "array", "items": {
         "type": "record", "name": "HoodieDeleteRecord",
         "fields": [
           {"name": "recordKey", "type": ["null", "string"], "default": null},
           {"name": "partitionPath", "type": ["null", "string"], "default": null},
           {"name": "orderingVal", "default": null, "type": [
             "null",
             {"type": "record", "name": "BooleanWrapper", "fields": [{"name": "value", "type": "boolean"}]},
             {"type": "record", "name": "IntWrapper", "fields": [{"name": "value", "type": "int"}]},
             {"type": "record", "name": "LongWrapper", "fields": [{"name": "value", "type": "long"}]},
             {"type": "record", "name": "FloatWrapper", "fields": [{"name": "value", "type": "float"}]},
             {"type": "record", "name": "DoubleWrapper", "fields": [{"name": "value", "type": "double"}]},
             {"type": "record", "name": "BytesWrapper", "fields": [{"name": "value", "type": "bytes"}]},
             {"type": "record", "name": "StringWrapper", "fields": [{"name": "value", "type": "string"}]},
             {"type": "record", "name": "DateWrapper", "fields": [{"name": "value", "type": "int"}]},
             {"type": "record", "name": "DecimalWrapper", "fields": [{"name": "value", "type":
               {"type": "bytes", "logicalType": "decimal", "precision": 30, "scale": 15}}]},
             {"type": "record", "name": "TimeMicrosWrapper", "fields": [{"name": "value", "type":
               {"type": "long", "logicalType": "time-micros"}}]},
             {"type": "record", "name": "TimestampMicrosWrapper", "fields": [{"name": "value", "type": "long"}]}
           ]}
         ]}}}]}
      """.formatted(NS));

  static final Schema ENTRY = SCHEMA.getField("deleteRecordList").schema().getElementType();
  private static final Schema ORDERING = ENTRY.getField("orderingVal").schema();
  private static final int DECIMAL_SCALE = 15;
  private static final int DECIMAL_PRECISION = 30;

  private final GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(SCHEMA);
  private BinaryEncoder encoder;

  /** Writes the Avro binary of a {@code HoodieDeleteRecordList} holding {@code deletes}. */
  void encode(List<DeleteRecord> deletes, OutputStream out) throws IOException {
    var list = new ArrayList<GenericRecord>(deletes.size());
    for (DeleteRecord delete : deletes) {
      list.add(toAvro(delete));
    }
    GenericRecord root = new GenericData.Record(SCHEMA);
    root.put(0, list);
    encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
    writer.write(root, encoder);
    encoder.flush();
  }

  /** Decodes a {@code HoodieDeleteRecordList} payload. */
  static List<DeleteRecord> decode(byte[] payload) throws IOException {
    AvroBinaryCheck.check(SCHEMA, payload, 0, payload.length);
    var reader = new GenericDatumReader<GenericRecord>(SCHEMA);
    GenericRecord root = reader.read(null, DecoderFactory.get().binaryDecoder(payload, null));
    @SuppressWarnings("unchecked")
    List<GenericRecord> entries = (List<GenericRecord>) root.get(0);
    var result = new ArrayList<DeleteRecord>(entries.size());
    for (GenericRecord entry : entries) {
      result.add(fromAvro(entry));
    }
    return result;
  }

  static GenericRecord toAvro(DeleteRecord delete) {
    GenericRecord entry = new GenericData.Record(ENTRY);
    entry.put(0, delete.recordKey());
    entry.put(1, delete.partitionPath());
    entry.put(2, wrap(delete.orderingValue(), delete.recordKey()));
    return entry;
  }

  static DeleteRecord fromAvro(GenericRecord entry) {
    Object key = entry.get(0);
    Object partition = entry.get(1);
    return new DeleteRecord(key == null ? null : key.toString(), partition == null ? null : partition.toString(),
        unwrap((GenericRecord) entry.get(2)));
  }

  private static GenericRecord wrap(Comparable<?> value, String recordKey) {
    Object inner;
    String wrapper;
    if (value instanceof Boolean b) {
      wrapper = "BooleanWrapper";
      inner = b;
    } else if (value instanceof Integer i) {
      wrapper = "IntWrapper";
      inner = i;
    } else if (value instanceof Long l) {
      wrapper = "LongWrapper";
      inner = l;
    } else if (value instanceof Float f) {
      wrapper = "FloatWrapper";
      inner = f;
    } else if (value instanceof Double d) {
      wrapper = "DoubleWrapper";
      inner = d;
    } else if (value instanceof ByteBuffer bytes) {
      wrapper = "BytesWrapper";
      inner = bytes.duplicate();
    } else if (value instanceof CharSequence s) {
      wrapper = "StringWrapper";
      inner = s.toString();
    } else if (value instanceof LocalDate date) {
      wrapper = "DateWrapper";
      inner = Math.toIntExact(date.toEpochDay());
    } else if (value instanceof BigDecimal decimal) {
      wrapper = "DecimalWrapper";
      inner = ByteBuffer.wrap(upcast(decimal, recordKey).unscaledValue().toByteArray());
    } else if (value instanceof LocalTime time) {
      wrapper = "TimeMicrosWrapper";
      inner = time.toNanoOfDay() / 1_000;
    } else if (value instanceof Instant instant) {
      wrapper = "TimestampMicrosWrapper";
      inner = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    } else {
      throw new InvalidRecordException("Delete of key '" + recordKey + "' has an ordering value of unsupported type "
          + value.getClass().getName());
    }
    GenericRecord record = new GenericData.Record(ORDERING.getTypes().get(branch(wrapper)));
    record.put(0, inner);
    return record;
  }

  private static Comparable<?> unwrap(GenericRecord wrapper) {
    if (wrapper == null) {
      return null;
    }
    Object value = wrapper.get(0);
    return switch (wrapper.getSchema().getName()) {
      case "StringWrapper" -> value.toString();
      case "DateWrapper" -> LocalDate.ofEpochDay((Integer) value);
      case "DecimalWrapper" -> {
        ByteBuffer buffer = (ByteBuffer) value;
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        yield new BigDecimal(new BigInteger(bytes), DECIMAL_SCALE);
      }
      case "TimestampMicrosWrapper" -> {
        long micros = (Long) value;
        yield Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
      }
      default -> (Comparable<?>) value;
    };
  }

  private static BigDecimal upcast(BigDecimal decimal, String recordKey) {
    try {
      BigDecimal scaled = decimal.setScale(DECIMAL_SCALE, RoundingMode.UNNECESSARY);
      if (scaled.precision() > DECIMAL_PRECISION) {
        throw new ArithmeticException("precision " + scaled.precision() + " > " + DECIMAL_PRECISION);
      }
      return scaled;
    } catch (ArithmeticException e) {
      throw new InvalidRecordException("Delete of key '" + recordKey + "' has decimal ordering value " + decimal
          + " that does not fit decimal(30,15): " + e.getMessage());
    }
  }

  private static int branch(String wrapperName) {
    return ORDERING.getIndexNamed(NS + "." + wrapperName);
  }
}
