package io.riverbed.hive;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.api.Partition;

/**
 * The partitions a metastore table must add, move (location changed) and drop to match the Hudi
 * table, found as Apache Hudi's sync finds them: partitions are matched by their values (as the
 * extractor reads them from the path), locations compared without scheme and authority.
 *
 * @param add relative partition paths to add
 * @param update relative partition paths whose metastore location differs
 * @param drop values of metastore partitions to drop
 */
public record PartitionChanges(List<String> add, List<String> update, List<List<String>> drop) {

  public PartitionChanges {
    add = List.copyOf(add);
    update = List.copyOf(update);
    drop = List.copyOf(drop);
  }

  public boolean isEmpty() {
    return add.isEmpty() && update.isEmpty() && drop.isEmpty();
  }

  /** Reads partition values from paths. */
  public record Values(PartitionValueExtractor extractor, boolean decode) {
    List<String> of(String partitionPath) {
      return extractor.values(partitionPath, decode);
    }
  }

  /**
   * Every partition on storage against every partition in the metastore: storage partitions
   * missing from the metastore are added, moved ones updated, metastore partitions with no
   * storage partition dropped (a first sync, or {@code hoodie.meta.sync.incremental=false}).
   */
  public static PartitionChanges full(List<Partition> inMetastore, Collection<String> onStorage, String basePath, Values values) {
    Map<String, Partition> byValues = byValues(inMetastore);
    var add = new ArrayList<String>();
    var update = new ArrayList<String>();
    for (String path : onStorage) {
      List<String> v = values.of(path);
      if (v.isEmpty()) {
        continue;
      }
      Partition existing = byValues.remove(String.join(", ", v));
      if (existing == null) {
        add.add(path);
      } else if (!samePath(existing.getSd().getLocation(), location(basePath, path))) {
        update.add(path);
      }
    }
    List<List<String>> drop = byValues.values().stream().map(Partition::getValues).toList();
    return new PartitionChanges(add, update, drop);
  }

  /**
   * The partitions written since the last sync against the metastore: those still on storage
   * are added or updated, those no longer on storage (deleted partitions) dropped.
   */
  public static PartitionChanges written(List<Partition> inMetastore, Collection<String> written,
      java.util.function.Predicate<String> onStorage, String basePath, Values values) {
    Map<String, Partition> byValues = byValues(inMetastore);
    var add = new ArrayList<String>();
    var update = new ArrayList<String>();
    var drop = new ArrayList<List<String>>();
    for (String path : written) {
      List<String> v = values.of(path);
      if (v.isEmpty()) {
        continue;
      }
      Partition existing = byValues.get(String.join(", ", v));
      if (!onStorage.test(path)) {
        if (existing != null) {
          drop.add(existing.getValues());
        }
      } else if (existing == null) {
        add.add(path);
      } else if (!samePath(existing.getSd().getLocation(), location(basePath, path))) {
        update.add(path);
      }
    }
    return new PartitionChanges(add, update, drop);
  }

  /** A partition's location: the base path and the relative partition path. */
  public static String location(String basePath, String partitionPath) {
    return new Path(basePath, partitionPath).toString();
  }

  private static Map<String, Partition> byValues(List<Partition> partitions) {
    var map = new HashMap<String, Partition>();
    partitions.forEach(p -> map.put(String.join(", ", p.getValues()), p));
    return map;
  }

  private static boolean samePath(String a, String b) {
    return Path.getPathWithoutSchemeAndAuthority(new Path(a)).toUri().getPath()
        .equals(Path.getPathWithoutSchemeAndAuthority(new Path(b)).toUri().getPath());
  }
}
