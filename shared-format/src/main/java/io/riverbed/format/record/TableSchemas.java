package io.riverbed.format.record;

import io.riverbed.format.InvalidTableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;

/**
 * Avro schema conventions of Hudi tables: the five meta fields in front (format doc §4.1), the
 * writer schema naming ({@code <table>_record} in namespace {@code hoodie.<table>}, §2.9) and
 * nullable fields as {@code ["null", T]} with default null.
 */
public final class TableSchemas {
  /** The schema of every meta field: {@code ["null","string"]}. */
  public static final Schema META_FIELD_SCHEMA =
      Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING));

  private static final Pattern INVALID_NAME_CHARS = Pattern.compile("[^A-Za-z0-9_]");
  private static final Pattern INVALID_FIRST_CHAR = Pattern.compile("[^A-Za-z_]");
  private static final String NAME_MASK = "__";

  private TableSchemas() {}

  /** {@code schema} with the five meta fields first (an existing meta field is replaced, not duplicated). */
  public static Schema addMetaFields(Schema schema) {
    return addMetaFields(schema, false);
  }

  /**
   * {@code schema} with the five meta fields first, each {@code ["null","string"]}, default null,
   * doc {@code ""}; with {@code withOperationField} the {@code _hoodie_operation} column follows
   * them. User fields keep name, schema, doc, default and properties, in order.
   */
  public static Schema addMetaFields(Schema schema, boolean withOperationField) {
    requireRecord(schema);
    var fields = new ArrayList<Schema.Field>(schema.getFields().size() + 6);
    for (String name : MetaFields.ALL) {
      fields.add(metaField(name));
    }
    if (withOperationField) {
      fields.add(metaField(MetaFields.OPERATION));
    }
    for (Schema.Field field : schema.getFields()) {
      if (!MetaFields.isMetaField(field.name())) {
        fields.add(copy(field, field.schema(), field.defaultVal()));
      }
    }
    return record(schema, schema.getName(), schema.getNamespace(), fields);
  }

  /** {@code schema} without the meta fields (including {@code _hoodie_operation}). */
  public static Schema removeMetaFields(Schema schema) {
    requireRecord(schema);
    var fields = new ArrayList<Schema.Field>(schema.getFields().size());
    for (Schema.Field field : schema.getFields()) {
      if (!MetaFields.isMetaField(field.name())) {
        fields.add(copy(field, field.schema(), field.defaultVal()));
      }
    }
    return record(schema, schema.getName(), schema.getNamespace(), fields);
  }

  /** Whether the first five fields are the meta fields, in order. */
  public static boolean hasMetaFields(Schema schema) {
    List<Schema.Field> fields = schema.getFields();
    if (fields.size() < MetaFields.ALL.size()) {
      return false;
    }
    for (int i = 0; i < MetaFields.ALL.size(); i++) {
      if (!fields.get(i).name().equals(MetaFields.ALL.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Hudi's Avro name sanitizing: invalid first char and every other invalid char become {@code __}. */
  public static String sanitizeName(String name) {
    String result = name;
    if (!result.isEmpty() && INVALID_FIRST_CHAR.matcher(result.substring(0, 1)).matches()) {
      result = INVALID_FIRST_CHAR.matcher(result).replaceFirst(NAME_MASK);
    }
    return INVALID_NAME_CHARS.matcher(result).replaceAll(NAME_MASK);
  }

  /** {@code <table>_record}, the record name of a table's writer schema. */
  public static String recordName(String tableName) {
    return sanitizeName(tableName) + "_record";
  }

  /** {@code hoodie.<table>}, the namespace of a table's writer schema. */
  public static String namespace(String tableName) {
    return "hoodie." + sanitizeName(tableName);
  }

  /** {@code schema}'s fields under the conventional writer schema name of {@code tableName}. */
  public static Schema withTableName(Schema schema, String tableName) {
    requireRecord(schema);
    var fields = new ArrayList<Schema.Field>(schema.getFields().size());
    for (Schema.Field field : schema.getFields()) {
      fields.add(copy(field, field.schema(), field.defaultVal()));
    }
    return record(schema, recordName(tableName), namespace(tableName), fields);
  }

  /**
   * {@code schema} with every field of the top-level record and of nested records made nullable:
   * {@code T} becomes {@code ["null", T]} with default null; a union already holding null gets null
   * moved first and default null. Arrays and maps keep their element nullability.
   */
  public static Schema nullable(Schema schema) {
    requireRecord(schema);
    return nullableRecord(schema);
  }

  private static Schema nullableRecord(Schema schema) {
    var fields = new ArrayList<Schema.Field>(schema.getFields().size());
    for (Schema.Field field : schema.getFields()) {
      fields.add(copy(field, nullableType(field.schema()), JsonProperties.NULL_VALUE));
    }
    return record(schema, schema.getName(), schema.getNamespace(), fields);
  }

  private static Schema nullableType(Schema schema) {
    if (schema.getType() == Schema.Type.NULL) {
      return schema;
    }
    var branches = new ArrayList<Schema>();
    branches.add(Schema.create(Schema.Type.NULL));
    List<Schema> types = schema.getType() == Schema.Type.UNION ? schema.getTypes() : List.of(schema);
    for (Schema branch : types) {
      if (branch.getType() != Schema.Type.NULL) {
        branches.add(branch.getType() == Schema.Type.RECORD ? nullableRecord(branch) : branch);
      }
    }
    return Schema.createUnion(branches);
  }

  /**
   * Checks that the configured fields exist in {@code schema} (nested names with dots allowed).
   *
   * @param precombineField may be null or empty (no ordering field)
   * @throws InvalidTableException naming the first missing field, its role and the schema
   */
  public static void validateFields(Schema schema, List<String> recordKeyFields, String precombineField,
      List<String> partitionFields) {
    requireRecord(schema);
    for (String field : recordKeyFields) {
      requireField(schema, field, "record key field (hoodie.datasource.write.recordkey.field)");
    }
    if (precombineField != null && !precombineField.isBlank()) {
      requireField(schema, precombineField.trim(), "precombine field (hoodie.datasource.write.precombine.field)");
    }
    for (String field : partitionFields) {
      requireField(schema, field, "partition path field (hoodie.datasource.write.partitionpath.field)");
    }
  }

  private static void requireField(Schema schema, String field, String role) {
    if (!FieldPaths.exists(schema, field)) {
      throw new InvalidTableException(role + " '" + field + "' is not in schema " + schema.getFullName()
          + " (fields: " + FieldPaths.allPaths(schema) + "): " + schema);
    }
  }

  private static Schema.Field metaField(String name) {
    return new Schema.Field(name, META_FIELD_SCHEMA, "", JsonProperties.NULL_VALUE);
  }

  private static Schema.Field copy(Schema.Field field, Schema schema, Object defaultValue) {
    var copy = new Schema.Field(field.name(), schema, field.doc(), defaultValue, field.order());
    for (Map.Entry<String, Object> prop : field.getObjectProps().entrySet()) {
      copy.addProp(prop.getKey(), prop.getValue());
    }
    for (String alias : field.aliases()) {
      copy.addAlias(alias);
    }
    return copy;
  }

  private static Schema record(Schema original, String name, String namespace, List<Schema.Field> fields) {
    Schema result = Schema.createRecord(name, original.getDoc(), namespace, original.isError());
    result.setFields(fields);
    for (Map.Entry<String, Object> prop : original.getObjectProps().entrySet()) {
      result.addProp(prop.getKey(), prop.getValue());
    }
    return result;
  }

  private static void requireRecord(Schema schema) {
    if (schema.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException("expected a record schema, got " + schema.getType() + ": " + schema);
    }
  }

  /**
   * The record of {@code schema}'s fields named in {@code names}, in table order, under the same
   * record name; a read of no stored column (a {@code COUNT(*)}) reads the record key, so that every
   * row still comes out.
   */
  public static Schema projection(Schema schema, java.util.Collection<String> names) {
    java.util.List<Schema.Field> fields = new java.util.ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      if (names.contains(f.name())) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    if (fields.isEmpty()) {
      Schema.Field key = schema.getField(MetaFields.RECORD_KEY);
      fields.add(new Schema.Field(key, key.schema()));
    }
    Schema projected = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false);
    projected.setFields(fields);
    return projected;
  }
}
