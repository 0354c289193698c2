package io.riverbed.flink.catalog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/** Flink SQL sessions of the catalog tests: one catalog {@code lake} in use, and a query's rows as text. */
final class CatalogSessions {
  /** The table both catalog tests create: MERGE_ON_READ, keyed, partitioned, commented, with an ordering field. */
  static final String TRIPS_DDL = """
      CREATE TABLE ods.trips (
        id STRING, ts BIGINT, fare DECIMAL(10, 2), city STRING, PRIMARY KEY (id) NOT ENFORCED
      ) COMMENT 'trips by id' PARTITIONED BY (city) WITH ('table.type' = 'MERGE_ON_READ', 'precombine.field' = 'ts')""";

  private CatalogSessions() {}

  /** A streaming session (checkpoints every 200 ms, parallelism 2) using {@code CREATE CATALOG lake WITH (<options>)}. */
  static TableEnvironment withCatalog(String options) {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    TableEnvironment tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    tEnv.executeSql("CREATE CATALOG lake WITH (" + options + ")");
    tEnv.useCatalog("lake");
    return tEnv;
  }

  /** The rows {@code query} returns, each as {@link Row#toString()} ({@code +I[a, 1]}). */
  static List<String> rows(TableEnvironment tEnv, String query) throws Exception {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
      it.forEachRemaining(r -> out.add(r.toString()));
    }
    return out;
  }
}
