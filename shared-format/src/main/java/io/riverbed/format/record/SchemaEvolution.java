package io.riverbed.format.record;

import io.riverbed.format.InvalidTableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/**
 * Which schema a write may bring to a table that has one, and the schema it then writes: the
 * same columns (nullability may differ: the table's is kept), plus new nullable columns, which are
 * added at the end as {@code ["null", T]} with default null. A column's type may be widened by one
 * of Avro's promotions ({@link #promotes}), which every reader applies to the files written
 * before: a wider type in the data widens the table's column, a narrower one is written in the
 * table's type. Anything else (a missing column, another type change, a new column that is not
 * nullable) is refused by column name, before anything is written.
 */
public final class SchemaEvolution {
  private SchemaEvolution() {}

  /**
   * The schema (no meta fields) that records of {@code incoming} are written in.
   *
   * @param table the table's schema, meta fields allowed; empty for a table without one
   * @param incoming the schema of the records to write, meta fields allowed
   * @param tableName names the record of a table's first schema
   * @throws InvalidTableException naming the column that the table cannot take
   */
  public static Schema writeSchema(Optional<Schema> table, Schema incoming, String tableName) {
    Schema in = TableSchemas.removeMetaFields(incoming);
    if (table.isEmpty()) {
      return TableSchemas.withTableName(in, tableName);
    }
    Schema current = TableSchemas.removeMetaFields(table.get());
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : current.getFields()) {
      Schema.Field given = in.getField(f.name());
      if (given == null) {
        throw new InvalidTableException("column '" + f.name() + "' of the table is missing from the written data "
            + "(columns: " + names(in) + "); a write must carry every column of the table");
      }
      Schema type = f.schema();
      if (!sameType(f.schema(), given.schema()) && !promotes(given.schema(), f.schema())) {
        if (!promotes(f.schema(), given.schema())) {
          throw new InvalidTableException("column '" + f.name() + "' has type " + nonNull(given.schema())
              + " in the written data but " + nonNull(f.schema()) + " in the table; a column's type may only be "
              + "widened (int to long, float or double; long to float or double; float to double)");
        }
        type = widened(f.schema(), nonNull(given.schema()));
      }
      fields.add(new Schema.Field(f.name(), type, f.doc(), f.defaultVal()));
    }
    for (Schema.Field f : in.getFields()) {
      if (current.getField(f.name()) != null) {
        continue;
      }
      if (!isNullable(f.schema())) {
        throw new InvalidTableException("new column '" + f.name() + "' is not nullable; a write may add only "
            + "nullable columns to the table");
      }
      fields.add(new Schema.Field(f.name(), Schema.createUnion(Schema.create(Schema.Type.NULL), nonNull(f.schema())),
          f.doc(), JsonProperties.NULL_VALUE));
    }
    Schema out = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false);
    out.setFields(fields);
    return out;
  }

  /**
   * The schema holding both {@code current}'s and {@code written}'s columns: {@code current}'s in
   * its order, each with the {@linkplain #unionType union} of its types in both, then
   * {@code written}'s other columns, made nullable. For a commit of files written in several
   * schemas: each file reads in the union by Avro's resolution (missing fields as null).
   *
   * @param what names the written schema's origin for the error (a task, an instant)
   * @throws InvalidTableException naming a column whose types have no union
   */
  public static Schema union(Schema current, Schema written, String what) {
    Schema table = TableSchemas.removeMetaFields(current);
    Schema in = TableSchemas.removeMetaFields(written);
    Schema out = unionRecord(table, in, what, "");
    return out.equals(table) ? table : out;
  }

  /**
   * The type that reads values of both {@code a} and {@code b} (a's nullability kept): either one
   * when they are the same type or one promotes to the other; for records, a record of a's fields
   * (each the union of both) then b's other fields made nullable; arrays and maps by their elements.
   * Empty when there is none (a string and a number, a record and an array, ...).
   */
  public static Optional<Schema> unionType(Schema a, Schema b) {
    try {
      return Optional.of(unionType(a, b, "", ""));
    } catch (InvalidTableException e) {
      return Optional.empty();
    }
  }

  private static Schema unionType(Schema a, Schema b, String what, String path) {
    Schema x = nonNull(a);
    Schema y = nonNull(b);
    if (x.getType() == Schema.Type.RECORD && y.getType() == Schema.Type.RECORD) {
      return widened(a, unionRecord(x, y, what, path + "."));
    }
    if (x.getType() == Schema.Type.ARRAY && y.getType() == Schema.Type.ARRAY) {
      return widened(a, Schema.createArray(unionType(x.getElementType(), y.getElementType(), what, path + "[]")));
    }
    if (x.getType() == Schema.Type.MAP && y.getType() == Schema.Type.MAP) {
      return widened(a, Schema.createMap(unionType(x.getValueType(), y.getValueType(), what, path + "{}")));
    }
    if (sameType(x, y) || promotes(y, x)) {
      return a;
    }
    if (promotes(x, y)) {
      return widened(a, y);
    }
    throw new InvalidTableException("column '" + path + "' has type " + y + " in " + what + " but " + x
        + " in the table schema; types may only be widened (int to long, float or double; long to float or double; "
        + "float to double) and records by nullable fields");
  }

  private static Schema unionRecord(Schema table, Schema in, String what, String prefix) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : table.getFields()) {
      Schema.Field given = in.getField(f.name());
      Schema type = given == null ? f.schema() : unionType(f.schema(), given.schema(), what, prefix + f.name());
      fields.add(new Schema.Field(f.name(), type, f.doc(), f.defaultVal()));
    }
    for (Schema.Field f : in.getFields()) {
      if (table.getField(f.name()) == null) {
        fields.add(new Schema.Field(f.name(), Schema.createUnion(Schema.create(Schema.Type.NULL), nonNull(f.schema())),
            f.doc(), JsonProperties.NULL_VALUE));
      }
    }
    Schema out = Schema.createRecord(table.getName(), table.getDoc(), table.getNamespace(), false);
    out.setFields(fields);
    return out;
  }

  /**
   * Whether values written in {@code from} read as {@code to} by Avro's schema resolution, which
   * parquet-avro, Spark's Parquet reader and Riverbed's log reader all apply: int to long, float or
   * double; long to float or double; float to double (plain types, nullability ignored).
   */
  public static boolean promotes(Schema from, Schema to) {
    Schema x = nonNull(from);
    Schema y = nonNull(to);
    if (x.getLogicalType() != null || y.getLogicalType() != null) {
      return false;
    }
    return switch (x.getType()) {
      case INT -> y.getType() == Schema.Type.LONG || y.getType() == Schema.Type.FLOAT || y.getType() == Schema.Type.DOUBLE;
      case LONG -> y.getType() == Schema.Type.FLOAT || y.getType() == Schema.Type.DOUBLE;
      case FLOAT -> y.getType() == Schema.Type.DOUBLE;
      default -> false;
    };
  }

  /** {@code column}'s schema with its type replaced by {@code type}, its nullability kept. */
  public static Schema widened(Schema column, Schema type) {
    if (column.getType() != Schema.Type.UNION) {
      return type;
    }
    return Schema.createUnion(column.getTypes().stream().map(t -> t.getType() == Schema.Type.NULL ? t : type).toList());
  }

  /** Same type, ignoring nullability and record names; decimals by precision and scale. */
  public static boolean sameType(Schema a, Schema b) {
    Schema x = nonNull(a);
    Schema y = nonNull(b);
    LogicalType lx = x.getLogicalType();
    LogicalType ly = y.getLogicalType();
    if (lx instanceof LogicalTypes.Decimal dx) {
      return ly instanceof LogicalTypes.Decimal dy && dx.getPrecision() == dy.getPrecision()
          && dx.getScale() == dy.getScale();
    }
    if (x.getType() != y.getType() || !java.util.Objects.equals(lx, ly)) {
      return false;
    }
    return switch (x.getType()) {
      case RECORD -> {
        if (x.getFields().size() != y.getFields().size()) {
          yield false;
        }
        for (Schema.Field f : x.getFields()) {
          Schema.Field g = y.getField(f.name());
          if (g == null || !sameType(f.schema(), g.schema())) {
            yield false;
          }
        }
        yield true;
      }
      case ARRAY -> sameType(x.getElementType(), y.getElementType());
      case MAP -> sameType(x.getValueType(), y.getValueType());
      case FIXED -> x.getFixedSize() == y.getFixedSize();
      case UNION -> x.getTypes().size() == y.getTypes().size();
      default -> true;
    };
  }

  private static boolean isNullable(Schema s) {
    return s.getType() == Schema.Type.NULL
        || (s.getType() == Schema.Type.UNION && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL));
  }

  /** The branch of a {@code ["null", T]} union ({@code s} itself when it is not such a union). */
  public static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    List<Schema> branches = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
    return branches.size() == 1 ? branches.get(0) : s;
  }

  private static List<String> names(Schema s) {
    return s.getFields().stream().map(Schema.Field::name).toList();
  }
}
