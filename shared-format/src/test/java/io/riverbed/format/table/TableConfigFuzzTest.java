package io.riverbed.format.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.riverbed.format.TableException;
import io.riverbed.format.testing.Mutations;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Assertions;

/**
 * Damaged {@code hoodie.properties} (and backup): opening the table either succeeds with a config
 * that passes every check, or fails with the project's exceptions naming the file; never a raw
 * {@code IllegalArgumentException} from a bad escape or a {@code NumberFormatException}.
 */
class TableConfigFuzzTest {
  static java.nio.file.Path dir;
  static FileSystem fs;
  static byte[] valid;

  @BeforeContainer
  static void writeValidConfig() throws IOException {
    dir = Files.createTempDirectory("props-fuzz");
    fs = FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()).getRawFileSystem();
    Path base = new Path(dir.resolve("valid").toUri());
    Table.create(fs, base, TableConfig.builder("orders").database("default").type(TableType.MERGE_ON_READ)
        .recordKeyFields(List.of("id")).partitionFields(List.of("dt")).precombineField("ts")
        .createSchema("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}")
        .build());
    valid = Files.readAllBytes(dir.resolve("valid/.hoodie/hoodie.properties"));
  }

  @AfterContainer
  static void deleteDir() throws IOException {
    try (var files = Files.walk(dir)) {
      for (java.nio.file.Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Opens a table whose config files hold these bytes (null: no such file) and reads every typed value. */
  static void openAndUse(byte[] main, byte[] backup) throws IOException {
    java.nio.file.Path table = Files.createTempDirectory(dir, "t");
    java.nio.file.Path meta = Files.createDirectories(table.resolve(".hoodie"));
    if (main != null) {
      Files.write(meta.resolve("hoodie.properties"), main);
    }
    if (backup != null) {
      Files.write(meta.resolve("hoodie.properties.backup"), backup);
    }
    Table opened = Table.open(fs, new Path(table.toUri()));
    TableConfig c = opened.config();
    c.name();
    c.type();
    c.version();
    c.timelineLayoutVersion();
    c.checksum();
    c.recordKeyFields();
    c.partitionFields();
    c.precombineField();
    c.timelineTimezone();
    c.payloadClass();
    c.hiveStylePartitioning();
    assertThat(TableConfigFile.damageOf(c)).isEmpty();
    opened.prepareForWrite();
  }

  static void opensOrFailsCleanly(byte[] main, byte[] backup) {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      try {
        openAndUse(main, backup);
      } catch (TableException expected) {
        // names the file, or the table (its path, or its name and the key a typed getter cannot use)
        assertThat(expected.getMessage()).containsAnyOf(".hoodie", "table orders: ", dir.toString());
      }
    });
  }

  @Property(tries = 200)
  void damagedMainFile(@ForAll("damage") List<Mutations.Mutation> damage, @ForAll boolean withBackup) {
    opensOrFailsCleanly(Mutations.apply(valid, damage), withBackup ? valid : null);
  }

  @Property(tries = 100)
  void damagedMainAndBackup(@ForAll("damage") List<Mutations.Mutation> main,
      @ForAll("damage") List<Mutations.Mutation> backup) {
    opensOrFailsCleanly(Mutations.apply(valid, main), Mutations.apply(valid, backup));
  }

  @Property(tries = 50)
  void damagedBackupOnly(@ForAll("damage") List<Mutations.Mutation> backup) {
    opensOrFailsCleanly(null, Mutations.apply(valid, backup));
  }

  @Property(tries = 50)
  void aDamagedMainFileWithAnIntactBackupAlwaysOpens(@ForAll("damage") List<Mutations.Mutation> damage) {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      try {
        openAndUse(Mutations.apply(valid, damage), valid);
      } catch (io.riverbed.format.InvalidTableException unsupported) {
        // damage that still parses as an intact but different config (e.g. another table type or version)
        assertThat(unsupported.getMessage()).isNotBlank();
      }
    });
  }

  @Provide
  Arbitrary<List<Mutations.Mutation>> damage() {
    return Mutations.mutations();
  }
}
