package io.riverbed.hive;

import io.riverbed.format.table.PartitionMetadata;
import io.riverbed.format.table.Table;
import io.riverbed.format.table.TableConfig;
import io.riverbed.format.table.TableType;
import io.riverbed.hive.HiveTableDefinition.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sync of a Hudi table to a Hive Metastore, as Apache Hudi's {@code HiveSyncTool} (hms mode)
 * does it: create the database if needed; register the table ({@code <t>} for COPY_ON_WRITE;
 * {@code <t>_ro}, {@code <t>_rt} and {@code <t>} for MERGE_ON_READ) or bring its columns and
 * properties up to date; add, move and drop partitions written since {@code last_commit_time_sync}
 * (all of them on a first sync); then record the last completed commit in that property.
 */
public final class HiveSync {
  private static final Logger LOG = LoggerFactory.getLogger(HiveSync.class);

  private final Table table;
  private final HiveSyncOptions options;

  private HiveSync(Table table, HiveSyncOptions options) {
    this.table = table;
    this.options = options;
  }

  /** A sync of {@code table} with {@code options}; the options' base path, as given, is the location registered. */
  public static HiveSync of(Table table, HiveSyncOptions options) {
    return new HiveSync(table, options);
  }

  /** The metastore tables this sync registers, with the view each serves, in sync order. */
  public Map<String, Kind> targets() {
    TableConfig config = table.config();
    String name = options.tableName(config);
    var targets = new java.util.LinkedHashMap<String, Kind>();
    if (config.type() == TableType.COPY_ON_WRITE) {
      targets.put(name, Kind.COPY_ON_WRITE);
      return targets;
    }
    switch (options.tableStrategy()) {
      case "RO" -> targets.put(name, Kind.READ_OPTIMIZED);
      case "RT" -> targets.put(name, Kind.REALTIME);
      default -> {
        targets.put(options.skipRoSuffix() ? name : name + "_ro", Kind.READ_OPTIMIZED);
        targets.put(name + "_rt", Kind.REALTIME);
        if (options.syncSnapshotWithTableName()) {
          targets.putIfAbsent(name, Kind.REALTIME);
        }
      }
    }
    return targets;
  }

  /**
   * Runs the sync against {@code client}.
   *
   * @throws HiveSyncException when the metastore refuses a change, a column changes to a type it
   *     cannot take, or the database is missing and may not be created
   */
  public List<TableSyncResult> run(MetastoreClient client) {
    TableState state = TableState.read(table, !options.omitMetadataFields());
    String database = options.database();
    if (!client.databaseExists(database)) {
      if (!options.autoCreateDatabase()) {
        throw new HiveSyncException("Hive Metastore at " + client.uris() + " has no database '" + database + "' and "
            + HiveSyncOptions.AUTO_CREATE_DATABASE + " is false");
      }
      client.createDatabase(database);
      LOG.info("Created database {} in the Hive Metastore at {}", database, client.uris());
    }
    var results = new ArrayList<TableSyncResult>();
    targets().forEach((name, kind) -> {
      // the base path as given, as Hudi stores it (location, serde path); partition locations below it
      TableSyncResult result = syncTable(client, state, new HiveTableDefinition(database, name, kind,
          options.basePath(), state.storageSchema(), options.partitionFields(table.config()), options));
      LOG.info("Hive sync of {}: {}", table.basePath(), result.summary());
      results.add(result);
    });
    return results;
  }

  private TableSyncResult syncTable(MetastoreClient client, TableState state, HiveTableDefinition definition) {
    String db = definition.database();
    String name = definition.name();
    boolean exists = client.tableExists(db, name);
    boolean columnsChanged;
    boolean propertiesChanged;
    if (!exists) {
      client.createTable(definition.newTable());
      columnsChanged = true;
      propertiesChanged = true;
    } else {
      columnsChanged = syncColumns(client, definition);
      propertiesChanged = syncProperties(client, definition);
    }
    Map<String, String> params = exists ? client.getTable(db, name).getParameters() : Map.of();
    Optional<String> lastSynced = options.incremental()
        ? Optional.ofNullable(params.get(HiveTableDefinition.LAST_COMMIT_TIME_SYNC)) : Optional.empty();
    Optional<String> lastCompletion = options.incremental()
        ? Optional.ofNullable(params.get(HiveTableDefinition.LAST_COMMIT_COMPLETION_TIME_SYNC)) : Optional.empty();

    PartitionChanges changes = new PartitionChanges(List.of(), List.of(), List.of());
    if (!definition.partitionFields().isEmpty()) {
      var values = new PartitionChanges.Values(options.extractor(table.config()), options.decodePartition(table.config()));
      List<Partition> inMetastore = client.listPartitions(db, name);
      String base = definition.basePath();
      if (lastSynced.isEmpty() || state.isBeforeTimelineStart(lastSynced.get())) {
        changes = PartitionChanges.full(inMetastore, partitionsOnStorage(), base, values);
      } else {
        Set<String> deleted = state.partitionsDeletedSince(lastSynced.get(), lastCompletion);
        changes = PartitionChanges.written(inMetastore, state.partitionsWrittenSince(lastSynced.get(), lastCompletion),
            p -> !deleted.contains(p) && isPartitionOnStorage(p), base, values);
      }
      applyPartitionChanges(client, definition, changes, values);
    }

    boolean changed = columnsChanged || propertiesChanged || !changes.isEmpty();
    Optional<String> recorded = lastSynced;
    if ((!options.conditionalSync() || changed) && state.lastCommitTime().isPresent()) {
      var current = client.getTable(db, name);
      current.getSd().setLocation(definition.basePath());
      current.getSd().getSerdeInfo().putToParameters(HiveTableDefinition.SERDE_PATH, definition.basePath());
      current.putToParameters(HiveTableDefinition.LAST_COMMIT_TIME_SYNC, state.lastCommitTime().get());
      state.lastCompletionTime().ifPresent(t -> current.putToParameters(HiveTableDefinition.LAST_COMMIT_COMPLETION_TIME_SYNC, t));
      client.alterTable(current, false);
      recorded = state.lastCommitTime();
    }
    return new TableSyncResult(db + "." + name, !exists, exists && columnsChanged, exists && propertiesChanged,
        changes.add(), changes.update(), changes.drop(), recorded);
  }

  /**
   * Brings the data columns up to date (added, removed, widened); partitions follow (cascade).
   * Column order alone is not a change, as in Hudi.
   */
  private boolean syncColumns(MetastoreClient client, HiveTableDefinition definition) {
    var current = client.getTable(definition.database(), definition.name());
    Map<String, String> registered = new HashMap<>();
    current.getSd().getCols().forEach(c -> registered.put(c.getName().toLowerCase(java.util.Locale.ROOT), c.getType()));
    List<FieldSchema> wanted = definition.columns();
    boolean differs = wanted.size() != registered.size();
    for (FieldSchema column : wanted) {
      String was = registered.get(column.getName().toLowerCase(java.util.Locale.ROOT));
      if (was == null) {
        differs = true;
      } else if (!HiveTypes.normalize(was).equals(HiveTypes.normalize(column.getType()))) {
        if (!HiveTypes.updateAllowed(was, column.getType())) {
          throw new HiveSyncException("cannot change column " + column.getName() + " of " + definition.database() + "."
              + definition.name() + " from " + was + " to " + column.getType() + " (table " + table.basePath() + ")");
        }
        differs = true;
      }
    }
    if (!differs) {
      return false;
    }
    current.getSd().setCols(wanted);
    client.alterTable(current, !definition.partitionFields().isEmpty());
    return true;
  }

  /** Sets formats, serde and table properties the sync owns when the metastore differs; other properties stay. */
  private boolean syncProperties(MetastoreClient client, HiveTableDefinition definition) {
    var current = client.getTable(definition.database(), definition.name());
    StorageDescriptor sd = current.getSd();
    Map<String, String> serde = definition.serdeProperties();
    SerDeInfo serdeInfo = sd.getSerdeInfo();
    boolean changed = false;
    if (serdeInfo == null || !containsAll(serdeInfo.getParameters(), serde)
        || !definition.kind().inputFormat().equals(sd.getInputFormat())
        || !HiveTableDefinition.PARQUET_OUTPUT_FORMAT.equals(sd.getOutputFormat())) {
      sd.setInputFormat(definition.kind().inputFormat());
      sd.setOutputFormat(HiveTableDefinition.PARQUET_OUTPUT_FORMAT);
      sd.setSerdeInfo(new SerDeInfo(serdeInfo == null ? null : serdeInfo.getName(), HiveTableDefinition.PARQUET_SERDE, serde));
      changed = true;
    }
    Map<String, String> props = definition.tableProperties();
    if (!containsAll(current.getParameters(), props)) {
      props.forEach(current::putToParameters);
      changed = true;
    }
    if (changed) {
      client.alterTable(current, false);
    }
    return changed;
  }

  private void applyPartitionChanges(MetastoreClient client, HiveTableDefinition definition, PartitionChanges changes,
      PartitionChanges.Values values) {
    String db = definition.database();
    String name = definition.name();
    StorageDescriptor sd = client.getTable(db, name).getSd();
    if (!changes.add().isEmpty()) {
      List<String> add = changes.add();
      for (int from = 0; from < add.size(); from += options.batchNum()) {
        var batch = new ArrayList<Partition>();
        for (String path : add.subList(from, Math.min(add.size(), from + options.batchNum()))) {
          batch.add(partition(db, name, sd, path, values));
        }
        client.addPartitions(db, name, batch);
      }
    }
    if (!changes.update().isEmpty()) {
      client.alterPartitions(db, name, changes.update().stream().map(p -> partition(db, name, sd, p, values)).toList());
    }
    for (List<String> dropped : changes.drop()) {
      client.dropPartition(db, name, dropped);
    }
  }

  private Partition partition(String db, String name, StorageDescriptor tableSd, String path, PartitionChanges.Values values) {
    StorageDescriptor sd = tableSd.deepCopy();
    sd.setLocation(PartitionChanges.location(options.basePath(), path));
    return new Partition(values.of(path), db, name, 0, 0, sd, null);
  }

  private List<String> partitionsOnStorage() {
    return table.listPartitions().stream().filter(p -> !p.isEmpty()).toList();
  }

  private boolean isPartitionOnStorage(String partitionPath) {
    return PartitionMetadata.exists(table.fs(), table.partitionPath(partitionPath));
  }

  private static boolean containsAll(Map<String, String> have, Map<String, String> want) {
    if (have == null) {
      return want.isEmpty();
    }
    for (var e : want.entrySet()) {
      if (!e.getValue().equals(have.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }
}
