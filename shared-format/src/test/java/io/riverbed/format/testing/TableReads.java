package io.riverbed.format.testing;

import io.riverbed.format.base.CloseableIterator;
import io.riverbed.format.query.QueryPlan;
import io.riverbed.format.query.QueryPlanner;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.query.ReadSettings;
import io.riverbed.format.query.SplitReader;
import io.riverbed.format.query.Split;
import io.riverbed.format.table.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/** Reads whole query results through the core's planner and split reader, for tests. */
public final class TableReads {
  private TableReads() {}

  public static List<GenericRecord> read(Table table, QuerySpec spec) {
    QueryPlan plan = QueryPlanner.plan(table, spec);
    if (plan.splits().isEmpty()) {
      return List.of();
    }
    SplitReader reader = SplitReader.of(plan, ReadSettings.defaults());
    List<GenericRecord> out = new ArrayList<>();
    for (Split split : plan.splits()) {
      try (CloseableIterator<GenericRecord> it = reader.read(split, Optional.empty())) {
        it.forEachRemaining(out::add);
      }
    }
    return out;
  }

  public static List<String> lines(Table table, QuerySpec spec) {
    return AvroRows.lines(read(table, spec));
  }
}
