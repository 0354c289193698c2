package io.riverbed.spark.sql;

import io.riverbed.format.TableException;
import io.riverbed.hive.HiveSyncOptions;
import java.util.Optional;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;

/**
 * Whether a session's catalog is a Hive metastore, and one Riverbed reaches by thrift, where SQL
 * registers and alters Hudi tables as Hive tables ({@link HiveTableRegistration}) and SQL writes sync
 * unasked, as Hudi 0.15's do. It names only hive-sync's option constants, which are compiled in, so
 * asking loads no class of the optional hive-sync module.
 */
public final class HiveCatalogSession {
  /** Spark's static setting whose value {@value #HIVE_CATALOG} makes the session catalog the Hive metastore. */
  public static final String CATALOG_IMPLEMENTATION = "spark.sql.catalogImplementation";
  public static final String HIVE_CATALOG = "hive";
  /** The Hadoop (hive-site) setting that names a remote metastore. */
  public static final String HIVE_METASTORE_URIS = "hive.metastore.uris";
  private static final String HUDI_INPUT_FORMATS = "org.apache.hudi.hadoop.";

  private HiveCatalogSession() {}

  /** Whether {@code spark}'s session catalog is the Hive metastore ({@code enableHiveSupport()}, spark-shell's default). */
  public static boolean isHiveCatalog(SparkSession spark) {
    return HIVE_CATALOG.equals(spark.sparkContext().conf().get(CATALOG_IMPLEMENTATION, "in-memory"));
  }

  /**
   * Whether tables Spark SQL creates on {@code spark} are registered as Hive tables: the session's
   * catalog is a Hive metastore Riverbed reaches by thrift ({@value #HIVE_METASTORE_URIS}, or
   * {@code hoodie.datasource.hive_sync.metastore.uris} set on the session), not Spark's embedded one.
   */
  public static boolean registersHiveTables(SparkSession spark) {
    return isHiveCatalog(spark) && metastoreUris(spark).isPresent();
  }

  /** Whether {@code table} is the Hive table of a Hudi table (Hudi's input format) on such a session. */
  public static boolean isHudiHiveTable(SparkSession spark, TableIdentifier table) {
    return registersHiveTables(spark) && catalogTable(spark, table).storage().inputFormat()
        .exists(format -> format.startsWith(HUDI_INPUT_FORMATS));
  }

  static Optional<String> metastoreUris(SparkSession spark) {
    String session = spark.conf().get(HiveSyncOptions.METASTORE_URIS, "").trim();
    String hadoop = spark.sessionState().newHadoopConf().getTrimmed(HIVE_METASTORE_URIS, "");
    return Optional.of(session.isEmpty() ? hadoop : session).filter(u -> !u.isEmpty());
  }

  static CatalogTable catalogTable(SparkSession spark, TableIdentifier table) {
    try {
      return spark.sessionState().catalog().getTableMetadata(table);
    } catch (AnalysisException e) {
      throw new TableException("table " + table.unquotedString() + " is not in the catalog: " + e.getMessage(), e);
    }
  }
}
