-- Riverbed's Flink SQL connector in Flink's SQL client (sql-client.sh -f deploy/flink/trips.sql, or
-- statement by statement). Page: docs/clusters/FLINK_SESSIONS.md. FlinkRecipesTest plans the INSERT
-- against the real connector factories (the jar's path is replaced by the test).
--
-- The job jar carries the connector 'hudi' and Flink's Kafka SQL connector; 'json' is in every Flink
-- distribution's lib/. ADD JAR takes a local path or a URL the cluster's file systems reach.
ADD JAR '/opt/riverbed/riverbed-flink-writer-0.1.0-SNAPSHOT-job.jar';

-- Commits happen on checkpoints: without checkpointing the table sees no commit.
SET 'execution.checkpointing.interval' = '30s';

CREATE TABLE trips (
  uuid STRING NOT NULL,
  ts BIGINT NOT NULL,
  rider STRING,
  driver STRING,
  fare DOUBLE,
  region STRING,
  country STRING,
  city STRING,
  PRIMARY KEY (uuid) NOT ENFORCED
) PARTITIONED BY (region, country, city) WITH (
  'connector' = 'hudi',
  'path' = 's3a://lake/warehouse/trips_sql',
  'table.type' = 'MERGE_ON_READ',
  'precombine.field' = 'ts',
  'compaction.async.enabled' = 'true'
);

-- The Kafka topic's table: the columns of trips, nothing else of it (key, partitions, options).
CREATE TABLE trips_kafka WITH (
  'connector' = 'kafka',
  'topic' = 'trips',
  'properties.bootstrap.servers' = 'kafka.streaming.svc:9092',
  'properties.group.id' = 'riverbed-trips-sql',
  'scan.startup.mode' = 'group-offsets',
  'properties.auto.offset.reset' = 'earliest',
  'format' = 'json'
) LIKE trips (EXCLUDING ALL);

INSERT INTO trips SELECT * FROM trips_kafka;
