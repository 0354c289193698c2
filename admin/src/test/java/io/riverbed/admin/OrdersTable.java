package io.riverbed.admin;

import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.query.QuerySpec;
import io.riverbed.format.record.MetaFields;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.format.testing.Orders;
import io.riverbed.format.testing.SingleTaskEngine;
import io.riverbed.format.testing.TableReads;
import io.riverbed.format.timeline.Timeline;
import io.riverbed.format.timeline.WriteOperationType;
import io.riverbed.format.write.WriteOptions;
import io.riverbed.format.write.WriteRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The tests' orders table ({@link Orders}: key {@code id}, ordering field {@code ts}, partitioned by
 * {@code dt} over two days) written through the core's writer and committer ({@link SingleTaskEngine}, a
 * map as the engine's index). Each round upserts keys k0..k5 (so every file group gets a new slice, or a
 * new log file on MERGE_ON_READ); {@link #bulkInsert} writes base files whatever the table type.
 */
final class OrdersTable {
  static final Schema SCHEMA = Orders.SCHEMA;
  static final List<String> DAYS = Orders.DAYS;

  final Table table;
  private final SingleTaskEngine engine;

  private OrdersTable(Table table) {
    this.table = table;
    this.engine = new SingleTaskEngine(table, SCHEMA, WriteOptions.defaults());
  }

  /** A new table at {@code uri} on the file system {@code conf} reaches. */
  static OrdersTable create(String uri, TableType type, Configuration conf) {
    TableConfig config = Orders.config(type);
    Path base = new Path(uri);
    try {
      return new OrdersTable(Table.create(base.getFileSystem(conf), base, config));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static OrdersTable create(java.nio.file.Path dir, TableType type) {
    return create(dir.resolve("orders").toUri().toString(), type, new Configuration());
  }

  String path() {
    return table.basePath().toString();
  }

  /** Keys k0..k5 with {@code name = r<round>} and ordering value {@code round}; returns the instant. */
  String upsertRound(int round) {
    return engine.write(WriteOperationType.UPSERT, round(round), Map.of());
  }

  /** The same round into base files (new file groups), committed as a bulk insert. */
  String bulkInsert(int round) {
    return engine.write(WriteOperationType.BULK_INSERT, round(round), Map.of());
  }

  /** A round whose files are written but whose instant stays inflight (a crashed writer). */
  String upsertRoundUncommitted(int round) {
    return engine.writeUncommitted(WriteOperationType.UPSERT, round(round)).instantTime();
  }

  private List<WriteRecord> round(int round) {
    return Orders.round(table.config(), round);
  }

  Timeline timeline() {
    return table.refreshTimeline();
  }

  /** {@code key -> name@ts} of a snapshot query through the core's reader. */
  Map<String, String> snapshot() {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : TableReads.read(table, QuerySpec.snapshot())) {
      out.put(r.get(MetaFields.RECORD_KEY).toString(), r.get("name") + "@" + r.get("ts"));
    }
    return out;
  }

  /** Names of every base and log file in the partitions. */
  TreeSet<String> dataFiles() {
    TreeSet<String> out = new TreeSet<>();
    for (String p : DAYS) {
      for (FileStatus st : FileSystemViewLoader.listDataFiles(table, p)) {
        out.add(st.getPath().getName());
      }
    }
    return out;
  }

  static FileSystem localFs() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
