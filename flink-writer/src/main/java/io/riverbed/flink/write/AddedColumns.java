package io.riverbed.flink.write;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riverbed.flink.source.AvroRowTypes;
import io.riverbed.flink.source.BadRecordException;
import io.riverbed.flink.source.JsonRowConverter;
import io.riverbed.flink.source.JsonSchemaInference;
import io.riverbed.format.InvalidTableException;
import io.riverbed.format.record.SchemaEvolution;
import io.riverbed.format.record.TableSchemas;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;

/**
 * The columns one writer task adds to the table for the top-level fields its input rows carry
 * beyond the job's row type (the rows' last field, the JSON object of those fields, as
 * {@link JsonRowConverter#keepingNewFields} makes it). Its schema is the job's columns, then the
 * added ones, each nullable: a field met for the first time gets the type its value infers
 * ({@link JsonSchemaInference#typeOf}); a column met with a value of another type takes the union of
 * both ({@link SchemaEvolution#unionType}: BIGINT and a fraction make DOUBLE, an Avro promotion; rows
 * gain nullable fields), so files written before read on; and the table's own columns beyond the
 * job's are adopted at each instant ({@link #adopt}). The task writes its files in
 * this schema and reports it with them; the commit records the union of all tasks' schemas.
 * Only ever widens, so every row buffered before a change still converts.
 */
final class AddedColumns {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern AVRO_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final RowType jobType;
  private final String tableName;
  private final LinkedHashMap<String, LogicalType> added = new LinkedHashMap<>();
  private Schema schema;
  private RowDataToAvro jobColumns;
  private RowDataToAvro addedColumns;
  private JsonRowConverter addedFields;

  /** @param jobType the job's row type, without the new-fields column its input rows end with */
  AddedColumns(RowType jobType, String tableName) {
    this.jobType = jobType;
    this.tableName = tableName;
    rebuild();
  }

  /** The schema the task writes in now: the job's columns, then those added. */
  Schema schema() {
    return schema;
  }

  /**
   * Widens the schema for the new fields of {@code row} (an input row, the new-fields column last).
   *
   * @return whether the schema changed
   * @throws BadRecordException naming the field when its value has a type with no union with its
   *     column's ({@link SchemaEvolution#unionType}), or its name is not an Avro name
   */
  boolean observe(RowData row) {
    int position = jobType.getFieldCount();
    if (row.isNullAt(position)) {
      return false;
    }
    boolean changed = false;
    for (Iterator<Map.Entry<String, JsonNode>> it = parse(row.getString(position).toString()).fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = field.getKey();
      LogicalType column = added.get(name);
      if (column == null && !AVRO_NAME.matcher(name).matches()) {
        throw new BadRecordException("new field '" + name + "' is not a valid Avro field name "
            + "([A-Za-z_][A-Za-z0-9_]*), so it cannot become a column");
      }
      if (column != null && (column.is(LogicalTypeFamily.CHARACTER_STRING))) {
        continue; // any JSON value converts to a string column
      }
      Optional<LogicalType> type = JsonSchemaInference.typeOf(field.getValue(), name);
      if (type.isEmpty()) {
        continue;
      }
      if (column == null) {
        added.put(name, type.get());
        changed = true;
        continue;
      }
      Schema current = avroType(column);
      Schema merged = SchemaEvolution.unionType(current, avroType(type.get())).orElseThrow(() ->
          new BadRecordException("field '" + name + "' is " + JsonRowConverter.describe(field.getValue())
              + ", which does not fit column '" + name + "' of type " + column + " (added to the table from the input);"
              + " declare the field in the job's schema to give the column another type"));
      if (!merged.equals(current)) {
        added.put(name, logicalType(merged));
        changed = true;
      }
    }
    if (changed) {
      rebuild();
    }
    return changed;
  }

  /**
   * Widens the schema to the columns {@code tableSchema} (the schema the next commit records at
   * least) has beyond the job's, to the union of their types there and here.
   *
   * @return whether the schema changed
   * @throws InvalidTableException naming a column this task added with a type that has no union with
   *     the table's
   */
  boolean adopt(Schema tableSchema) {
    Schema table = TableSchemas.removeMetaFields(tableSchema);
    boolean changed = false;
    for (Schema.Field field : table.getFields()) {
      if (jobType.getFieldNames().contains(field.name())) {
        continue;
      }
      LogicalType mine = added.get(field.name());
      if (mine == null) {
        added.put(field.name(), logicalType(field.schema()));
        changed = true;
        continue;
      }
      Schema current = avroType(mine);
      Schema merged = SchemaEvolution.unionType(current, field.schema()).orElseThrow(() ->
          new InvalidTableException("column '" + field.name() + "' of table " + tableName + " has type "
              + SchemaEvolution.nonNull(field.schema()) + " but this writer task added it as " + mine
              + " from its input; declare the field in the job's schema"));
      if (!merged.equals(current)) {
        added.put(field.name(), logicalType(merged));
        changed = true;
      }
    }
    if (changed) {
      rebuild();
    }
    return changed;
  }

  /** {@code row} (an input row) as a record of {@link #schema()}. */
  GenericRecord convert(RowData row) {
    GenericRecord record = jobColumns.convert(row);
    int position = jobType.getFieldCount();
    if (addedFields != null && !row.isNullAt(position)) {
      addedColumns.convertInto(addedFields.convert(row.getString(position).toString()), record, position);
    }
    return record;
  }

  /** The Avro type a column of {@code type} has (nullable). */
  private Schema avroType(LogicalType type) {
    RowType single = new RowType(true, List.of(new RowType.RowField("c", type.copy(true))));
    return RowTypeAvroConverter.toAvroSchema(single, tableName).getField("c").schema();
  }

  /** The column type of an Avro field type. */
  private static LogicalType logicalType(Schema type) {
    Schema single = Schema.createRecord("column", null, "riverbed", false);
    single.setFields(List.of(new Schema.Field("c", type, null, (Object) null)));
    return AvroRowTypes.toRowType(single).getTypeAt(0).copy(true);
  }

  private void rebuild() {
    List<RowType.RowField> fields = new ArrayList<>(jobType.getFields());
    List<RowType.RowField> newOnes = new ArrayList<>();
    added.forEach((name, type) -> newOnes.add(new RowType.RowField(name, type.copy(true))));
    fields.addAll(newOnes);
    schema = RowTypeAvroConverter.toAvroSchema(new RowType(jobType.isNullable(), fields), tableName);
    jobColumns = RowDataToAvro.of(jobType, schema);
    if (newOnes.isEmpty()) {
      addedColumns = null;
      addedFields = null;
      return;
    }
    RowType addedType = new RowType(true, newOnes);
    List<Schema.Field> addedSchemaFields = new ArrayList<>();
    for (Schema.Field f : schema.getFields().subList(jobType.getFieldCount(), fields.size())) {
      addedSchemaFields.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
    }
    Schema addedSchema = Schema.createRecord(schema.getName() + "_added", null, schema.getNamespace(), false);
    addedSchema.setFields(addedSchemaFields);
    addedColumns = RowDataToAvro.of(addedType, addedSchema);
    addedFields = JsonRowConverter.of(addedType);
  }

  private static JsonNode parse(String json) {
    try {
      JsonNode node = MAPPER.readTree(json);
      if (node == null || !node.isObject()) {
        throw new BadRecordException("the new-fields column holds " + json + ", not a JSON object");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new BadRecordException("the new-fields column is not valid JSON: " + e.getOriginalMessage());
    }
  }
}
