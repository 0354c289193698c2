package io.riverbed.spark;

import java.util.Set;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.types.StructType;

/**
 * What {@link HudiDataSource} answers Spark for a path that holds no table yet, so that
 * {@code df.write...save(path)} can create one: a table with no capability, which makes Spark
 * take the V1 path for the write ({@code CreatableRelationProvider}), and for a read the V1
 * {@code RelationProvider}, which reports why the path is not a table.
 */
final class AbsentTable implements Table {
  private final String path;

  AbsentTable(String path) {
    this.path = path;
  }

  @Override
  public String name() {
    return "hudi (no table yet) at " + path;
  }

  @Override
  public StructType schema() {
    return new StructType();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of();
  }
}
