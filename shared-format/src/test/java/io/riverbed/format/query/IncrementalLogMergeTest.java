package io.riverbed.format.query;

import static io.riverbed.format.testing.OrderWrites.order;
import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.log.LogFileReader;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.AppendedLogFiles;
import io.riverbed.format.testing.OrderWrites;
import io.riverbed.format.testing.TableReads;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MERGE_ON_READ incremental read merges every committed block of the range's log files up to the
 * range's last commit, the blocks of earlier delta commits included (a log file that several delta
 * commits appended to, as writers on appendable storage leave them: {@link AppendedLogFiles}), and only then keeps the rows
 * whose commit time lies in the range (as Hudi 0.15's Spark reader does): a key whose version from
 * before the range wins the merge over the version the range wrote is not a change of the range.
 */
class IncrementalLogMergeTest {
  @TempDir
  Path dir;

  private OrderWrites orders;
  private Table table;

  @BeforeEach
  void createTable() {
    orders = OrderWrites.create(dir, TableType.MERGE_ON_READ);
    table = orders.table();
  }

  @Test
  void updateThatLosesToAnEarlierLogVersionIsNotAChangeOfTheRange() {
    orders.upsert(order("k0", "first", 1), order("k1", "first", 1));
    String second = orders.upsert(order("k0", "second", 5));
    String third = orders.upsert(order("k0", "third-loses", 3), order("k1", "third", 3));
    AppendedLogFiles.join(table.fs(), table.basePath());

    assertThat(logBlockInstantsOfOneFile()).as("both updates' blocks in the one log file").contains(second, third);
    assertThat(namesAt(incremental(second, third))).containsExactly(Map.entry("k1", "third"));
    assertThat(namesAt(incremental("000", third)))
        .as("a range holding the winning version returns it").containsEntry("k0", "second");
  }

  @Test
  void keyDeletedInsideTheRangeIsAbsentAndKeyUpdatedInsideShowsItsUpdate() {
    String first = orders.upsert(order("k0", "first", 1), order("k1", "first", 1), order("k2", "first", 1));
    orders.upsert(order("k2", "second", 2));
    String third = orders.delete("k0");
    String fourth = orders.upsert(order("k1", "fourth", 4));
    AppendedLogFiles.join(table.fs(), table.basePath());

    assertThat(namesAt(incremental(first, fourth))).containsExactly(Map.entry("k1", "fourth"), Map.entry("k2", "second"));
    assertThat(namesAt(incremental(third, fourth))).containsExactly(Map.entry("k1", "fourth"));
  }

  private QuerySpec incremental(String beginExclusive, String endInclusive) {
    return QuerySpec.fromOptions(Map.of(QuerySpec.QUERY_TYPE, "incremental", QuerySpec.BEGIN_INSTANT, beginExclusive,
        QuerySpec.END_INSTANT, endInclusive));
  }

  private Map<String, String> namesAt(QuerySpec spec) {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table.reload(), spec)) {
      out.put(r.get(MetaFields.RECORD_KEY).toString(), r.get("name").toString());
    }
    return out;
  }

  private TreeSet<String> logBlockInstantsOfOneFile() {
    Table t = table.reload();
    List<FileSlice> slices = FileSystemViewLoader.load(t, t.refreshTimeline()).latestMergedSlices("99999999999999999");
    assertThat(slices).hasSize(1);
    assertThat(slices.get(0).logFiles()).hasSize(1);
    var instants = new TreeSet<String>();
    try (LogFileReader reader = LogFileReader.open(t.fs(), slices.get(0).logFiles().get(0).path())) {
      while (reader.hasNext()) {
        instants.add(reader.next().instantTime());
      }
    }
    return instants;
  }
}
