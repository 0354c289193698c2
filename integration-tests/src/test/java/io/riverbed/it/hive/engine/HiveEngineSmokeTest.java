package io.riverbed.it.hive.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HiveEngineSmokeTest {
  @TempDir
  Path dir;

  @Test
  void hiveRunsAQueryThroughLocalMapReduce() throws Exception {
    try (HiveEngine hive = HiveEngine.start(dir, List.of())) {
      hive.query("CREATE TABLE t (a INT, b STRING) STORED AS PARQUET");
      hive.query("INSERT INTO t VALUES (1, 'x'), (2, 'y')");
      assertThat(hive.query("SELECT a, b FROM t ORDER BY a")).containsExactly(List.of("1", "x"), List.of("2", "y"));
      assertThat(hive.query("SELECT count(*) FROM t")).containsExactly(List.of("2"));
    }
  }
}
