package io.riverbed.spark;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Wrong paths and options fail at load() with a message that says what is wrong, not deep inside a Spark job. */
class ReadErrorsTest {
  final SparkSession spark = SparkTestSession.get();

  @Test
  void aFolderThatIsNotATable() throws Exception {
    Path dir = Files.createTempDirectory("not-a-table");
    assertThatThrownBy(() -> spark.read().format("hudi").load(dir.toUri().toString()))
        .isInstanceOf(TableException.class).hasMessageContaining("is not a Hudi table");
  }

  @Test
  void aPathThatDoesNotExist() throws Exception {
    Path dir = Files.createTempDirectory("gone").resolve("nothing-here");
    assertThatThrownBy(() -> spark.read().format("hudi").load(dir.toUri().toString()))
        .isInstanceOf(TableException.class).hasMessageContaining("does not exist");
  }

  @Test
  void aPartitionFolderPointsToItsTable() {
    String partition = GoldenTables.path("mor_small") + "/americas/brazil/sao_paulo";
    assertThatThrownBy(() -> spark.read().format("hudi").load(partition))
        .isInstanceOf(TableException.class).hasMessageContaining("is inside the Hudi table at");
  }

  @Test
  void anUnknownQueryType() {
    assertThatThrownBy(() -> spark.read().format("hudi").option("hoodie.datasource.query.type", "latest")
        .load(GoldenTables.path("mor_small")))
        .isInstanceOf(TableException.class).hasMessageContaining("'latest'").hasMessageContaining("snapshot, read_optimized, incremental");
  }

  @Test
  void incrementalWithoutBegin() {
    assertThatThrownBy(() -> spark.read().format("hudi").option("hoodie.datasource.query.type", "incremental")
        .load(GoldenTables.path("mor_small")))
        .isInstanceOf(TableException.class).hasMessageContaining("hoodie.datasource.read.begin.instanttime is required");
  }

  @Test
  void unparseableInstants() {
    assertThatThrownBy(() -> spark.read().format("hudi").option("as.of.instant", "yesterday").load(GoldenTables.path("mor_small")))
        .isInstanceOf(TableException.class).hasMessageContaining("as.of.instant").hasMessageContaining("'yesterday' is not an instant time");
    assertThatThrownBy(() -> spark.read().format("hudi").option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", "last week").load(GoldenTables.path("mor_small")))
        .isInstanceOf(TableException.class).hasMessageContaining("hoodie.datasource.read.begin.instanttime='last week' is not an instant time");
  }

  @Test
  void unsupportedOptionValues() {
    assertThatThrownBy(() -> spark.read().format("hudi").option("hoodie.datasource.merge.type", "skip_merge")
        .load(GoldenTables.path("mor_small")))
        .isInstanceOf(TableException.class).hasMessageContaining("hoodie.datasource.merge.type='skip_merge' is not supported");
  }
}
