package io.riverbed.spark.sql.procedures;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.write.WriterLease;
import io.riverbed.spark.RiverbedCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchDatabaseException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.parser.ParseException;

/**
 * The table a procedure works on: the {@code table} argument looked up in the session catalog (its
 * location, as Hudi's {@code HoodieCLIUtils.getHoodieCatalogTable}), or the {@code path} argument
 * where the procedure takes one; and the writer lease that writing procedures hold, as Spark's other
 * writes do, so that they refuse while another writer (a Flink job) writes the table.
 */
final class ProcedureTable {
  private static final Duration LEASE_TIMEOUT = Duration.ofSeconds(60);

  private ProcedureTable() {}

  /** The table named by {@code table} (else {@code path}) of {@code args}. */
  static Table open(SparkSession spark, ProcedureArguments args) {
    Optional<String> name = args.string("table");
    Path base;
    if (name.isPresent()) {
      base = new Path(catalogTable(spark, args.procedure(), name.get()).location());
    } else {
      base = new Path(args.string("path").orElseThrow(() -> new IllegalArgumentException("CALL " + args.procedure()
          + ": table name or table path must be given (argument table or path)")));
    }
    try {
      FileSystem fs = base.getFileSystem(spark.sessionState().newHadoopConf());
      if (!Table.exists(fs, base)) {
        throw new TableException("CALL " + args.procedure() + ": no Hudi table at " + base);
      }
      return Table.open(fs, base);
    } catch (IOException e) {
      throw new UncheckedIOException("CALL " + args.procedure() + ": cannot open the table at " + base, e);
    }
  }

  private static CatalogTable catalogTable(SparkSession spark, String procedure, String name) {
    TableIdentifier id;
    try {
      id = spark.sessionState().sqlParser().parseTableIdentifier(name);
    } catch (ParseException e) {
      throw new IllegalArgumentException("CALL " + procedure + ": table " + name + " is not a table name", e);
    }
    if (!spark.sessionState().catalog().tableExists(id)) {
      throw new IllegalArgumentException("CALL " + procedure + ": table " + name + " does not exist");
    }
    CatalogTable table;
    try {
      table = spark.sessionState().catalog().getTableMetadata(id);
    } catch (NoSuchDatabaseException | NoSuchTableException e) {
      throw new IllegalArgumentException("CALL " + procedure + ": table " + name + " does not exist", e);
    }
    if (!RiverbedCatalog.isHudiProvider(table.provider().getOrElse(() -> null))) {
      throw new IllegalArgumentException("CALL " + procedure + ": table " + name + " is not a Hudi table");
    }
    return table;
  }

  /** Runs {@code write} holding {@code table}'s writer lease. */
  static <T> T underLease(SparkSession spark, Table table, String procedure, Function<Table, T> write) {
    String holder = "Spark application " + spark.sparkContext().applicationId() + " (CALL " + procedure + ")";
    WriterLease lease = WriterLease.acquire(table, "spark-call-" + UUID.randomUUID(), holder, LEASE_TIMEOUT);
    try {
      return write.apply(table);
    } finally {
      lease.release();
    }
  }
}
