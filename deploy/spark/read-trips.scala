// Riverbed's Spark DataSource from spark-shell: paste it, or
//   RIVERBED_TABLE=s3a://lake/warehouse/trips deploy/spark/riverbed-spark.sh spark-shell < deploy/spark/read-trips.scala
// Page: docs/clusters/SPARK.md. SparkRecipesTest runs it in Spark's real REPL against a test table.
val path = sys.env.getOrElse("RIVERBED_TABLE", "/data/trips")

// Snapshot: the latest merged view, with the five _hoodie_* meta columns first.
val trips = spark.read.format("hudi").load(path)
trips.createOrReplaceTempView("trips")
println(s"riverbed: snapshot rows = ${trips.count()}")

// Commits on the timeline, oldest first.
val commits = spark.sql("SELECT DISTINCT _hoodie_commit_time FROM trips ORDER BY 1").collect().map(_.getString(0))
println(s"riverbed: commits = ${commits.mkString(",")}")

// Incremental: what the commits after the first one wrote (begin is exclusive).
// (A line ending in a dot continues on the next: the REPL reads line by line.)
val changes = spark.read.format("hudi").
  option("hoodie.datasource.query.type", "incremental").
  option("hoodie.datasource.read.begin.instanttime", commits.head).
  load(path)
println(s"riverbed: incremental rows after ${commits.head} = ${changes.count()}")

// Time travel: the table as of its first commit.
val first = spark.read.format("hudi").option("as.of.instant", commits.head).load(path)
println(s"riverbed: rows as of ${commits.head} = ${first.count()}")

// Spark SQL by table name, through spark.sql.catalog.spark_catalog=io.riverbed.spark.RiverbedCatalog
// (riverbed-spark.sh sets it): register the table in the session's catalog (a table riverbed-hive-sync
// registered in a Hive Metastore is there already), then query it, also as of a commit.
spark.sql(s"CREATE TABLE IF NOT EXISTS trips_by_name USING hudi LOCATION '$path'")
println(s"riverbed: rows by name = ${spark.sql("SELECT count(*) FROM trips_by_name").first.getLong(0)}")
println(s"riverbed: rows by name as of ${commits.head} = ${spark.sql(s"SELECT count(*) FROM trips_by_name VERSION AS OF '${commits.head}'").first.getLong(0)}")
