package io.riverbed.format.write.concurrency;

import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.Orders;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh MERGE_ON_READ orders table ({@link Orders}) in a local folder for each test of the concurrency package. */
abstract class ConcurrencyTestTables {
  @TempDir
  java.nio.file.Path dir;

  Table table;

  @BeforeEach
  void createTable() throws IOException {
    table = Table.create(FileSystem.getLocal(new Configuration()), new Path(dir.toUri().toString(), "orders"),
        Orders.config(TableType.MERGE_ON_READ));
  }
}
