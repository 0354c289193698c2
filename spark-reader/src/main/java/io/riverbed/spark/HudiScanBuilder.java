package io.riverbed.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the columns and filters of one query. Filters on partition columns prune file slices
 * by partition path; filters on top-level columns go to Parquet for base-only slices (row groups
 * skipped by statistics). Every filter is also handed back to Spark to evaluate on the rows, so
 * push-down only ever saves work.
 */
public final class HudiScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns {
  private final LoadedTable table;
  private StructType readSchema;
  private Filter[] pushed = new Filter[0];
  private List<Filter> partitionFilters = List.of();

  HudiScanBuilder(LoadedTable table) {
    this.table = table;
    this.readSchema = table.sparkSchema();
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    PartitionPruner pruner = PartitionPruner.of(table.table().config());
    List<Filter> used = new ArrayList<>();
    List<Filter> onPartitions = new ArrayList<>();
    for (Filter f : filters) {
      if (pruner.canPrune(f)) {
        onPartitions.add(f);
        used.add(f);
      } else if (ParquetPredicates.mayConvert(f, table.sparkSchema())) {
        used.add(f);
      }
    }
    this.pushed = used.toArray(Filter[]::new);
    this.partitionFilters = List.copyOf(onPartitions);
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed;
  }

  /** Top-level columns only: a pruned struct is read whole (Spark projects the nested fields it needs). */
  @Override
  public void pruneColumns(StructType requiredSchema) {
    Set<String> wanted = new LinkedHashSet<>(Arrays.asList(requiredSchema.fieldNames()));
    List<StructField> fields = new ArrayList<>();
    for (StructField f : table.sparkSchema().fields()) {
      if (wanted.contains(f.name())) {
        fields.add(f);
      }
    }
    this.readSchema = new StructType(fields.toArray(StructField[]::new));
  }

  @Override
  public Scan build() {
    return new HudiScan(table, readSchema, pushed, partitionFilters);
  }
}
