package io.riverbed.it.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.table.Table;
import io.riverbed.format.testing.TableReads;
import io.riverbed.it.oracle.Query;
import io.riverbed.it.oracle.QueryKind;
import io.riverbed.it.oracle.Rows;
import io.riverbed.it.oracle.SparkOracle;
import io.riverbed.it.scenario.ScenarioTable;
import io.riverbed.it.scenario.Scenarios;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tables Apache Hudi 0.15 wrote (MOR with bulk insert, upserts, a delete, an insert_overwrite and a
 * compaction; COW with composite keys and hive-style partitions; a nested record key) read by
 * Riverbed's core: every query kind returns exactly the rows Hudi's own reader returns, meta
 * columns included.
 */
class CoreReaderMatchesHudiTest {

  static Stream<Arguments> queries() {
    List<Arguments> out = new ArrayList<>();
    for (ScenarioTable t : List.of(Scenarios.morTrips(), Scenarios.cowComposite(), Scenarios.nestedKey())) {
      for (Query q : Query.everyKind(t.commitTimes())) {
        out.add(Arguments.of(t, q));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("queries")
  void coreReturnsHudisRows(ScenarioTable table, Query query) {
    Rows hudi = SparkOracle.read(table.path(), query);
    Rows core = Rows.ofJsonLines(TableReads.lines(open(table), spec(query)));
    if (query.kind() != QueryKind.INCREMENTAL) {
      assertThat(hudi.size()).as("a query that returns nothing proves little: " + query).isPositive();
    }
    core.assertSameAs(hudi, table + " " + query);
  }

  static Table open(ScenarioTable table) {
    try {
      return Table.open(FileSystem.getLocal(new Configuration()), new Path(table.path().toUri()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static QuerySpec spec(Query query) {
    return QuerySpec.fromOptions(query.hudiOptions());
  }
}
