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
 * same columns with the same types (nullability may differ: the table's is kept), plus new
 * nullable columns, which are added at the end as {@code ["null", T]} with default null. Anything
 * else (a missing column, a changed type, a new column that is not nullable) is refused by column
 * name, before anything is written.
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
      if (!sameType(f.schema(), given.schema())) {
        throw new InvalidTableException("column '" + f.name() + "' has type " + nonNull(given.schema())
            + " in the written data but " + nonNull(f.schema()) + " in the table; changing a column's type is not "
            + "supported");
      }
      fields.add(new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal()));
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

  /** Same type, ignoring nullability and record names; decimals by precision and scale. */
  static boolean sameType(Schema a, Schema b) {
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

  private static Schema nonNull(Schema s) {
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
