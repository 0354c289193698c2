// The seeds' Spark code as a spark-shell user types it, one step per "//// name: title" header; each step is
// pasted whole (:paste) and the test compares what each step prints through the helpers (shell-helpers.scala):
// rows(...) / orderedRows(...) where the seeds call show() or print a result, value(...) for counts.
// Changes to the seeds' code, each needed for two runs to mean the same thing, are marked "// compare:".
// Paths s3://..., hdfs://... and /tmp/hudi/... are seedsRoot + the same name; PySpark is translated to Scala.

//// emr67-imports: Initialize a Spark session for Hudi (EMR guide)
import org.apache.spark.sql.SaveMode
import org.apache.spark.sql.functions._
import org.apache.hudi.DataSourceWriteOptions
import org.apache.hudi.DataSourceReadOptions
import org.apache.hudi.config.HoodieWriteConfig
import org.apache.hudi.hive.MultiPartKeysValueExtractor
import org.apache.hudi.hive.HiveSyncConfig
import org.apache.hudi.sync.common.HoodieSyncConfig

//// emr67-insert: Write using Scala with Amazon EMR 6.7 and later
// Create a DataFrame
val inputDF = Seq(
("100", "2015-01-01", "2015-01-01T13:51:39.340396Z"),
("101", "2015-01-01", "2015-01-01T12:14:58.597216Z"),
("102", "2015-01-01", "2015-01-01T13:51:40.417052Z"),
("103", "2015-01-01", "2015-01-01T13:51:40.519832Z"),
("104", "2015-01-02", "2015-01-01T12:15:00.512679Z"),
("105", "2015-01-02", "2015-01-01T13:51:42.248818Z")
).toDF("id", "creation_date", "last_update_time")
//Specify common DataSourceWriteOptions in the single hudiOptions variable
val hudiOptions = Map[String,String](
HoodieWriteConfig.TBL_NAME.key -> "tableName",
DataSourceWriteOptions.TABLE_TYPE.key -> "COPY_ON_WRITE",
DataSourceWriteOptions.RECORDKEY_FIELD_OPT_KEY -> "id",
DataSourceWriteOptions.PARTITIONPATH_FIELD_OPT_KEY -> "creation_date",
DataSourceWriteOptions.PRECOMBINE_FIELD_OPT_KEY -> "last_update_time",
DataSourceWriteOptions.HIVE_SYNC_ENABLED_OPT_KEY -> "true",
DataSourceWriteOptions.HIVE_TABLE_OPT_KEY -> "tableName",
DataSourceWriteOptions.HIVE_PARTITION_FIELDS_OPT_KEY -> "creation_date",
HoodieSyncConfig.META_SYNC_PARTITION_EXTRACTOR_CLASS.key -> "org.apache.hudi.hive.MultiPartKeysValueExtractor",
HoodieSyncConfig.META_SYNC_ENABLED.key -> "true",
HiveSyncConfig.HIVE_SYNC_MODE.key -> "hms",
HoodieSyncConfig.META_SYNC_TABLE_NAME.key -> "tableName",
HoodieSyncConfig.META_SYNC_PARTITION_FIELDS.key -> "creation_date",
HiveSyncConfig.METASTORE_URIS.key -> metastoreUri // compare: this run's metastore
)
// Write the DataFrame as a Hudi dataset
(inputDF.write
.format("hudi")
.options(hudiOptions)
.option(DataSourceWriteOptions.OPERATION_OPT_KEY,"insert")
.mode(SaveMode.Overwrite)
.save(seedsRoot + "/myhudidataset/"))

//// emr67-upsert: Upsert using Scala with Amazon EMR 6.7 and later
// Create a new DataFrame from the first row of inputDF with a different creation_date value
val updateDF = inputDF.limit(1).withColumn("creation_date", lit("new_value"))
(updateDF.write
.format("hudi")
.options(hudiOptions)
.option(DataSourceWriteOptions.OPERATION_OPT_KEY, "upsert")
.mode(SaveMode.Append)
.save(seedsRoot + "/myhudidataset/"))
rows(spark.read.format("hudi").load(seedsRoot + "/myhudidataset")) // compare: the table after the step

//// emr67-delete: Delete using Scala with Amazon EMR 6.7 and later
(updateDF.write
.format("hudi")
.options(hudiOptions)
.option(DataSourceWriteOptions.OPERATION_OPT_KEY, "delete")
.mode(SaveMode.Append)
.save(seedsRoot + "/myhudidataset/"))

//// emr67-read: Read using Scala with Amazon EMR 6.7 and later
val snapshotQueryDF = spark.read
.format("hudi")
.load(seedsRoot + "/myhudidataset")
.show()
rows(spark.read.format("hudi").load(seedsRoot + "/myhudidataset")) // compare: what show() printed

//// emr67-incremental: Incremental queries using Scala
val incQueryDF = spark.read
.format("org.apache.hudi")
.option(DataSourceReadOptions.QUERY_TYPE_OPT_KEY, DataSourceReadOptions.QUERY_TYPE_INCREMENTAL_OPT_VAL)
.option(DataSourceReadOptions.BEGIN_INSTANTTIME_OPT_KEY, completedInstants(seedsRoot + "/myhudidataset").head) // compare: the guide leaves the instant blank; the first commit
.load(seedsRoot + "/myhudidataset")
incQueryDF.show()
rows(incQueryDF)

//// emr67-by-name: the table Hive sync registered, read by name
rows(spark.sql("select * from tableName"))

//// emr66-insert: Write using Scala with Amazon EMR 6.6 and earlier
// Create a DataFrame
val inputDF = Seq(
("100", "2015-01-01", "2015-01-01T13:51:39.340396Z"),
("101", "2015-01-01", "2015-01-01T12:14:58.597216Z"),
("102", "2015-01-01", "2015-01-01T13:51:40.417052Z"),
("103", "2015-01-01", "2015-01-01T13:51:40.519832Z"),
("104", "2015-01-02", "2015-01-01T12:15:00.512679Z"),
("105", "2015-01-02", "2015-01-01T13:51:42.248818Z")
).toDF("id", "creation_date", "last_update_time")
//Specify common DataSourceWriteOptions in the single hudiOptions variable
val hudiOptions = Map[String,String](
HoodieWriteConfig.TABLE_NAME -> "tableName66", // compare: a table of its own (the guide's is "tableName")
DataSourceWriteOptions.TABLE_TYPE_OPT_KEY -> "COPY_ON_WRITE",
DataSourceWriteOptions.RECORDKEY_FIELD_OPT_KEY -> "id",
DataSourceWriteOptions.PARTITIONPATH_FIELD_OPT_KEY -> "creation_date",
DataSourceWriteOptions.PRECOMBINE_FIELD_OPT_KEY -> "last_update_time",
DataSourceWriteOptions.HIVE_SYNC_ENABLED_OPT_KEY -> "true",
DataSourceWriteOptions.HIVE_TABLE_OPT_KEY -> "tableName66",
DataSourceWriteOptions.HIVE_PARTITION_FIELDS_OPT_KEY -> "creation_date",
DataSourceWriteOptions.HIVE_PARTITION_EXTRACTOR_CLASS_OPT_KEY -> classOf[MultiPartKeysValueExtractor].getName,
"hoodie.datasource.hive_sync.mode" -> "hms", // compare: the metastore, not HiveServer2 (no JDBC server here)
"hoodie.datasource.hive_sync.metastore.uris" -> metastoreUri
)
// Write the DataFrame as a Hudi dataset
(inputDF.write
.format("org.apache.hudi")
.option(DataSourceWriteOptions.OPERATION_OPT_KEY, DataSourceWriteOptions.INSERT_OPERATION_OPT_VAL)
.options(hudiOptions)
.mode(SaveMode.Overwrite)
.save(seedsRoot + "/myhudidataset66/"))

//// emr66-upsert: Upsert using Scala with Amazon EMR 6.6 and earlier
// Create a new DataFrame from the first row of inputDF with a different creation_date value
val updateDF = inputDF.limit(1).withColumn("creation_date", lit("new_value"))
(updateDF.write
.format("org.apache.hudi")
.option(DataSourceWriteOptions.OPERATION_OPT_KEY, DataSourceWriteOptions.UPSERT_OPERATION_OPT_VAL)
.options(hudiOptions)
.mode(SaveMode.Append)
.save(seedsRoot + "/myhudidataset66/"))

//// emr66-delete: Delete using Scala with Amazon EMR 6.6 and earlier (EmptyHoodieRecordPayload, no other options)
(updateDF.write
.format("org.apache.hudi")
.option(DataSourceWriteOptions.OPERATION_OPT_KEY, DataSourceWriteOptions.UPSERT_OPERATION_OPT_VAL)
.option(DataSourceWriteOptions.PAYLOAD_CLASS_OPT_KEY, "org.apache.hudi.common.model.EmptyHoodieRecordPayload")
.mode(SaveMode.Append)
.save(seedsRoot + "/myhudidataset66/"))

//// emr66-read: Read using Scala with Amazon EMR 6.6 and earlier (the legacy /*/* glob)
val snapshotQueryDF = (spark.read // compare: the guide's "(val snapshotQueryDF = ..." does not compile
.format("org.apache.hudi")
.load(seedsRoot + "/myhudidataset66" + "/*/*"))
snapshotQueryDF.show()
rows(snapshotQueryDF)

//// emr-pyspark-insert: Write using PySpark (the EMR guide and notebook), translated to Scala
// Create a DataFrame
val inputDF = spark.createDataFrame(Seq(
("100", "2015-01-01", "2015-01-01T13:51:39.340396Z"),
("101", "2015-01-01", "2015-01-01T12:14:58.597216Z"),
("102", "2015-01-01", "2015-01-01T13:51:40.417052Z"),
("103", "2015-01-01", "2015-01-01T13:51:40.519832Z"),
("104", "2015-01-02", "2015-01-01T12:15:00.512679Z"),
("105", "2015-01-02", "2015-01-01T13:51:42.248818Z")
)).toDF("id", "creation_date", "last_update_time")
// Specify common DataSourceWriteOptions in the single hudiOptions variable
val hudiOptions = Map(
"hoodie.table.name" -> "my_hudi_table",
"hoodie.datasource.write.recordkey.field" -> "id",
"hoodie.datasource.write.partitionpath.field" -> "creation_date",
"hoodie.datasource.write.precombine.field" -> "last_update_time",
"hoodie.datasource.hive_sync.enable" -> "true",
"hoodie.datasource.hive_sync.table" -> "my_hudi_table",
"hoodie.datasource.hive_sync.partition_fields" -> "creation_date",
"hoodie.datasource.hive_sync.partition_extractor_class" -> "org.apache.hudi.hive.MultiPartKeysValueExtractor",
"hoodie.datasource.hive_sync.mode" -> "hms", // compare: the metastore, not HiveServer2 (no JDBC server here)
"hoodie.datasource.hive_sync.metastore.uris" -> metastoreUri
)
// Write a DataFrame as a Hudi dataset
(inputDF.write
.format("org.apache.hudi")
.option("hoodie.datasource.write.operation", "insert")
.options(hudiOptions)
.mode("overwrite")
.save(seedsRoot + "/my-hudi-dataset/"))

//// emr-pyspark-upsert: Upsert using PySpark
val updateDF = inputDF.limit(1).withColumn("creation_date", lit("new_value"))
(updateDF.write
.format("org.apache.hudi")
.option("hoodie.datasource.write.operation", "upsert")
.options(hudiOptions)
.mode("append")
.save(seedsRoot + "/my-hudi-dataset/"))

//// emr-pyspark-delete: Delete using PySpark (EmptyHoodieRecordPayload)
(updateDF.write
.format("org.apache.hudi")
.option("hoodie.datasource.write.operation", "upsert")
.option("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.EmptyHoodieRecordPayload")
.options(hudiOptions)
.mode("append")
.save(seedsRoot + "/my-hudi-dataset/"))

//// emr-pyspark-read: Read using PySpark (the legacy /*/* glob)
val snapshotQueryDF = (spark.read
.format("org.apache.hudi")
.load(seedsRoot + "/my-hudi-dataset" + "/*/*"))
snapshotQueryDF.show()
rows(snapshotQueryDF)

//// emr-pyspark-incremental: Incremental queries using PySpark
val readOptions = Map(
"hoodie.datasource.query.type" -> "incremental",
"hoodie.datasource.read.begin.instanttime" -> completedInstants(seedsRoot + "/my-hudi-dataset").head // compare: left blank in the guide
)
val incQueryDF = (spark.read
.format("org.apache.hudi")
.options(readOptions)
.load(seedsRoot + "/my-hudi-dataset"))
incQueryDF.show()
rows(incQueryDF)

//// walk-setup: set the table name, base path and data generator (walkthrough)
val tableName = "hudi_trips_cow"
val basePath = seedsRoot + "/hudi_trips_cow"
val dataGen = new org.apache.hudi.QuickstartUtils.DataGenerator()

//// walk-insert: insert data
val inserts = pinned(org.apache.hudi.QuickstartUtils.convertToStringList(dataGen.generateInserts(10))) // compare: pinned
val df = spark.read.json(spark.sparkContext.parallelize(inserts, 2))
val hudi_options = Map(
    "hoodie.table.name" -> tableName,
    "hoodie.datasource.write.recordkey.field" -> "uuid",
    "hoodie.datasource.write.partitionpath.field" -> "partitionpath",
    "hoodie.datasource.write.table.name" -> tableName,
    "hoodie.datasource.write.operation" -> "upsert",
    "hoodie.datasource.write.precombine.field" -> "ts",
    "hoodie.upsert.shuffle.parallelism" -> "2",
    "hoodie.insert.shuffle.parallelism" -> "2"
)
df.write.format("hudi").
    options(hudi_options).
    mode("overwrite").
    save(basePath)

//// walk-query: query data
val tripsSnapshotDF = spark.
  read.
  format("hudi").
  load(basePath)
tripsSnapshotDF.createOrReplaceTempView("hudi_trips_snapshot")
rows(spark.sql("select fare, begin_lon, begin_lat, ts from  hudi_trips_snapshot where fare > 20.0"))
rows(spark.sql("select _hoodie_commit_time, _hoodie_record_key, _hoodie_partition_path, rider, driver, fare from  hudi_trips_snapshot"))
rows(tripsSnapshotDF) // compare: every column

//// walk-time-travel-instant: time travel, "20210728141108100" form (the first commit)
rows(spark.read.
  format("hudi").
  option("as.of.instant", completedInstants(basePath).head).
  load(basePath))

//// walk-time-travel-datetime: time travel, "2021-07-28 14:11:08.200" form (the first commit)
rows(spark.read.
  format("hudi").
  option("as.of.instant", asDateTime(completedInstants(basePath).head)).
  load(basePath))

//// walk-time-travel-date: time travel, "2021-07-28" form (midnight after the first commit)
rows(spark.read.
  format("hudi").
  option("as.of.instant", dayAfter(completedInstants(basePath).head)).
  load(basePath))

//// walk-update: update data
val updates = pinned(org.apache.hudi.QuickstartUtils.convertToStringList(dataGen.generateUpdates(10))) // compare: pinned
val df = spark.read.json(spark.sparkContext.parallelize(updates, 2))
df.write.format("hudi").
  options(hudi_options).
  mode("append").
  save(basePath)
rows(spark.read.format("hudi").load(basePath)) // compare: the table after the step

//// walk-incremental: incremental query
// reload data
spark.
  read.
  format("hudi").
  load(basePath).
  createOrReplaceTempView("hudi_trips_snapshot")
val commits = spark.sql("select distinct(_hoodie_commit_time) as commitTime from  hudi_trips_snapshot order by commitTime").map(k => k.getString(0)).take(50)
val beginTime = commits(commits.length - 2) // commit time we are interested in
// incrementally query data
val incremental_read_options = Map(
  "hoodie.datasource.query.type" -> "incremental",
  "hoodie.datasource.read.begin.instanttime" -> beginTime
)
val tripsIncrementalDF = spark.read.format("hudi").
  options(incremental_read_options).
  load(basePath)
tripsIncrementalDF.createOrReplaceTempView("hudi_trips_incremental")
rows(spark.sql("select `_hoodie_commit_time`, fare, begin_lon, begin_lat, ts from  hudi_trips_incremental where fare > 20.0"))

//// walk-point-in-time: point in time query
val beginTime = "000" // Represents all commits > this time.
val endTime = commits(commits.length - 2)
// query point in time data
val point_in_time_read_options = Map(
  "hoodie.datasource.query.type" -> "incremental",
  "hoodie.datasource.read.end.instanttime" -> endTime,
  "hoodie.datasource.read.begin.instanttime" -> beginTime
)
val tripsPointInTimeDF = spark.read.format("hudi").
  options(point_in_time_read_options).
  load(basePath)
tripsPointInTimeDF.createOrReplaceTempView("hudi_trips_point_in_time")
rows(spark.sql("select `_hoodie_commit_time`, fare, begin_lon, begin_lat, ts from hudi_trips_point_in_time where fare > 20.0"))

//// walk-soft-delete: soft delete
spark.read.format("hudi").
  load(basePath).
  createOrReplaceTempView("hudi_trips_snapshot")
// fetch total records count
value(spark.sql("select uuid, partitionpath from hudi_trips_snapshot").count())
value(spark.sql("select uuid, partitionpath from hudi_trips_snapshot where rider is not null").count())
// fetch two records for soft deletes
val soft_delete_ds = spark.sql("select * from hudi_trips_snapshot order by uuid").limit(2) // compare: the same two rows
// prepare the soft deletes by ensuring the appropriate fields are nullified
val meta_columns = Seq("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
  "_hoodie_partition_path", "_hoodie_file_name")
val excluded_columns = meta_columns ++ Seq("ts", "uuid", "partitionpath")
val nullify_columns = soft_delete_ds.schema.fields.filter(field => !excluded_columns.contains(field.name)).
  map(field => (field.name, field.dataType))
val hudi_soft_delete_options = Map(
  "hoodie.table.name" -> tableName,
  "hoodie.datasource.write.recordkey.field" -> "uuid",
  "hoodie.datasource.write.partitionpath.field" -> "partitionpath",
  "hoodie.datasource.write.table.name" -> tableName,
  "hoodie.datasource.write.operation" -> "upsert",
  "hoodie.datasource.write.precombine.field" -> "ts",
  "hoodie.upsert.shuffle.parallelism" -> "2",
  "hoodie.insert.shuffle.parallelism" -> "2"
)
val soft_delete_df = nullify_columns.foldLeft(meta_columns.foldLeft(soft_delete_ds)((df, col) => df.drop(col)))(
  (df, col) => df.withColumn(col._1, lit(null).cast(col._2)))
// simply upsert the table after setting these fields to null
soft_delete_df.write.format("hudi").
  options(hudi_soft_delete_options).
  mode("append").
  save(basePath)
// reload data
spark.read.format("hudi").
  load(basePath).
  createOrReplaceTempView("hudi_trips_snapshot")
// This should return the same total count as before
value(spark.sql("select uuid, partitionpath from hudi_trips_snapshot").count())
// This should return (total - 2) count as two records are updated with nulls
value(spark.sql("select uuid, partitionpath from hudi_trips_snapshot where rider is not null").count())

//// walk-hard-delete: hard delete
// fetch total records count
value(spark.sql("select uuid, partitionpath from hudi_trips_snapshot").count())
// fetch two records to be deleted
val ds = spark.sql("select uuid, partitionpath from hudi_trips_snapshot order by uuid desc").limit(2) // compare: the same two rows
// issue deletes
val hudi_hard_delete_options = Map(
  "hoodie.table.name" -> tableName,
  "hoodie.datasource.write.recordkey.field" -> "uuid",
  "hoodie.datasource.write.partitionpath.field" -> "partitionpath",
  "hoodie.datasource.write.table.name" -> tableName,
  "hoodie.datasource.write.operation" -> "delete",
  "hoodie.datasource.write.precombine.field" -> "ts",
  "hoodie.upsert.shuffle.parallelism" -> "2",
  "hoodie.insert.shuffle.parallelism" -> "2"
)
val deletes = ds.collect().map(row => (row.getString(0), row.getString(1)))
val hard_delete_df = spark.sparkContext.parallelize(deletes).toDF("uuid", "partitionpath").withColumn("ts", lit(0.0))
hard_delete_df.write.format("hudi").
  options(hudi_hard_delete_options).
  mode("append").
  save(basePath)
// run the same read query as above.
val roAfterDeleteViewDF = spark.
  read.
  format("hudi").
  load(basePath)
roAfterDeleteViewDF.createOrReplaceTempView("hudi_trips_snapshot")
// fetch should return (total - 2) records
value(spark.sql("select uuid, partitionpath from hudi_trips_snapshot").count())

//// walk-insert-overwrite: insert overwrite
orderedRows(spark.read.format("hudi").
    load(basePath).
    select("uuid", "partitionpath").
    sort("partitionpath", "uuid"))
val inserts = pinned(org.apache.hudi.QuickstartUtils.convertToStringList(dataGen.generateInserts(10))) // compare: pinned
val df = spark.read.json(spark.sparkContext.parallelize(inserts, 2)).
    filter("partitionpath = 'americas/united_states/san_francisco'")
val hudi_insert_overwrite_options = Map(
    "hoodie.table.name" -> tableName,
    "hoodie.datasource.write.recordkey.field" -> "uuid",
    "hoodie.datasource.write.partitionpath.field" -> "partitionpath",
    "hoodie.datasource.write.table.name" -> tableName,
    "hoodie.datasource.write.operation" -> "insert_overwrite",
    "hoodie.datasource.write.precombine.field" -> "ts",
    "hoodie.upsert.shuffle.parallelism" -> "2",
    "hoodie.insert.shuffle.parallelism" -> "2"
)
df.write.format("hudi").options(hudi_insert_overwrite_options).mode("append").save(basePath)
orderedRows(spark.read.format("hudi").
    load(basePath).
    select("uuid", "partitionpath").
    sort("partitionpath", "uuid"))

//// sql-create-without-key: CREATE TABLE as the walkthrough's guide (Hudi 0.12) writes it, without primaryKey
spark.sql("create table hudi_cow_nokey_tbl (uuid int, name string, price double) using hudi")

//// sql-create-cow: CREATE TABLE, non-partitioned COW without a precombine field
spark.sql("create table hudi_cow_nonpcf_tbl (uuid int, name string, price double) using hudi tblproperties (primaryKey = 'uuid')")

//// sql-create-mor: CREATE TABLE, non-partitioned MOR with a precombine field
spark.sql("""create table hudi_mor_tbl (
  id int,
  name string,
  price double,
  ts bigint
) using hudi
tblproperties (
  type = 'mor',
  primaryKey = 'id',
  preCombineField = 'ts'
)""")

//// sql-create-partitioned: CREATE TABLE, partitioned COW with a location
spark.sql(s"""create table hudi_cow_pt_tbl (
  id bigint,
  name string,
  ts bigint,
  dt string,
  hh string
) using hudi
tblproperties (
  type = 'cow',
  primaryKey = 'id',
  preCombineField = 'ts'
 )
partitioned by (dt, hh)
location '$seedsRoot/hudi_cow_pt_tbl'""")

//// sql-insert: INSERT INTO
spark.sql("insert into hudi_cow_nonpcf_tbl select 1, 'a1', 20")
spark.sql("insert into hudi_mor_tbl select 1, 'a1', 20, 1000")
spark.sql("insert into hudi_cow_pt_tbl partition (dt, hh) select 1 as id, 'a1' as name, 1000 as ts, '2021-12-09' as dt, '10' as hh")
spark.sql("insert into hudi_cow_pt_tbl partition(dt = '2021-12-09', hh='11') select 2, 'a2', 1000")
rows(spark.sql("select * from hudi_cow_nonpcf_tbl"))
rows(spark.sql("select * from hudi_mor_tbl"))
rows(spark.sql("select * from hudi_cow_pt_tbl"))

//// sql-time-travel: SELECT ... TIMESTAMP AS OF (the first commit)
rows(spark.sql(s"select * from hudi_cow_pt_tbl timestamp as of '${completedInstants(seedsRoot + "/hudi_cow_pt_tbl").head}' where id = 1"))

//// sql-update: UPDATE
spark.sql("update hudi_mor_tbl set price = price * 2, ts = 1111 where id = 1")
spark.sql("update hudi_cow_pt_tbl set name = 'a1_1', ts = 1001 where id = 1")
spark.sql("update hudi_cow_nonpcf_tbl set price = price * 2 where uuid = 1")
rows(spark.sql("select * from hudi_cow_nonpcf_tbl"))
rows(spark.sql("select * from hudi_mor_tbl"))
rows(spark.sql("select * from hudi_cow_pt_tbl"))

//// sql-merge-mor: MERGE INTO a MOR table from a table
spark.sql("create table merge_source (id int, name string, price double, ts bigint) using parquet")
spark.sql("insert into merge_source values (1, 'old_a1', 22.22, 900), (2, 'new_a2', 33.33, 2000), (3, 'new_a3', 44.44, 2000)")
spark.sql("""merge into hudi_mor_tbl as target
using merge_source as source
on target.id = source.id
when matched then update set *
when not matched then insert *""")
rows(spark.sql("select * from hudi_mor_tbl"))

//// sql-merge-partitioned: MERGE INTO a partitioned table from a query
spark.sql("""merge into hudi_cow_pt_tbl as target
using (
  select 1 as id, 'a1' as name, 10000 as ts, '2021-12-09' as dt, '10' as hh
) source
on target.id = source.id
when matched then update set *
when not matched then insert *""")
rows(spark.sql("select * from hudi_cow_pt_tbl"))

//// sql-delete: DELETE FROM
spark.sql("delete from hudi_cow_nonpcf_tbl where uuid = 1")
spark.sql("delete from hudi_mor_tbl where id % 2 = 0")
rows(spark.sql("select * from hudi_cow_nonpcf_tbl"))
rows(spark.sql("select * from hudi_mor_tbl"))

//// sql-rename: ALTER TABLE RENAME TO
spark.sql("ALTER TABLE hudi_cow_nonpcf_tbl RENAME TO hudi_cow_nonpcf_tbl2")
rows(spark.sql("select * from hudi_cow_nonpcf_tbl2"))

//// sql-add-columns: ALTER TABLE ADD COLUMNS
spark.sql("ALTER TABLE hudi_cow_nonpcf_tbl2 add columns(remark string)")
rows(spark.sql("select * from hudi_cow_nonpcf_tbl2"))

//// sql-change-column: ALTER TABLE CHANGE COLUMN (int to bigint)
spark.sql("ALTER TABLE hudi_cow_nonpcf_tbl2 change column uuid uuid bigint")
rows(spark.sql("select * from hudi_cow_nonpcf_tbl2"))

//// sql-set-tblproperties: ALTER TABLE SET TBLPROPERTIES
spark.sql("alter table hudi_cow_nonpcf_tbl2 set tblproperties (hoodie.keep.max.commits = '10')")
rows(spark.sql("show tblproperties hudi_cow_nonpcf_tbl2 ('hoodie.keep.max.commits')"))

//// sql-show-partitions: SHOW PARTITIONS
rows(spark.sql("show partitions hudi_cow_pt_tbl"))

//// sql-drop-partition: ALTER TABLE DROP PARTITION
spark.sql("alter table hudi_cow_pt_tbl drop partition (dt='2021-12-09', hh='10')")
rows(spark.sql("show partitions hudi_cow_pt_tbl"))
rows(spark.sql("select * from hudi_cow_pt_tbl"))
