"""Riverbed's Spark DataSource from PySpark: a snapshot, an incremental query and time travel.

    deploy/spark/riverbed-spark.sh spark-submit --master yarn deploy/spark/read_trips.py s3a://lake/warehouse/trips

or paste the body into deploy/spark/riverbed-spark.sh pyspark. Page: docs/clusters/SPARK.md.
"""
import sys

from pyspark.sql import SparkSession


def main(path):
    spark = SparkSession.builder.appName("riverbed-read-trips").getOrCreate()

    # Snapshot: the latest merged view, with the five _hoodie_* meta columns first.
    trips = spark.read.format("hudi").load(path)
    trips.createOrReplaceTempView("trips")
    print("riverbed: snapshot rows =", trips.count())

    commits = [r[0] for r in spark.sql("SELECT DISTINCT _hoodie_commit_time FROM trips ORDER BY 1").collect()]
    print("riverbed: commits =", ",".join(commits))

    # Incremental: what the commits after the first one wrote (begin is exclusive).
    changes = (spark.read.format("hudi")
               .option("hoodie.datasource.query.type", "incremental")
               .option("hoodie.datasource.read.begin.instanttime", commits[0])
               .load(path))
    print("riverbed: incremental rows after", commits[0], "=", changes.count())

    # Time travel: the table as of its first commit.
    first = spark.read.format("hudi").option("as.of.instant", commits[0]).load(path)
    print("riverbed: rows as of", commits[0], "=", first.count())

    # Spark SQL by table name, through spark.sql.catalog.spark_catalog=io.riverbed.spark.RiverbedCatalog
    # (riverbed-spark.sh sets it): register the table in the session's catalog (a table riverbed-hive-sync
    # registered in a Hive Metastore is there already), then query it, also as of a commit.
    spark.sql(f"CREATE TABLE IF NOT EXISTS trips_by_name USING hudi LOCATION '{path}'")
    print("riverbed: rows by name =", spark.sql("SELECT count(*) FROM trips_by_name").first()[0])
    print("riverbed: rows by name as of", commits[0], "=",
          spark.sql(f"SELECT count(*) FROM trips_by_name VERSION AS OF '{commits[0]}'").first()[0])
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1])
