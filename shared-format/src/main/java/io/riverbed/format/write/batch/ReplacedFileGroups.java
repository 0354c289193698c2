package io.riverbed.format.write.batch;

import io.riverbed.format.file.FileGroup;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Timeline;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The file groups a replacing batch write (insert_overwrite, insert_overwrite_table,
 * delete_partition) lists in its replacecommit's {@code partitionToReplaceFileIds}, chosen as Hudi
 * 0.15's Spark executors choose them: in each replaced partition, every file group with a committed
 * slice that no earlier replacecommit replaced (Hudi's {@code getLatestFileSlices}).
 */
public final class ReplacedFileGroups {
  /** Hudi's wildcard in a partition to delete; Spark SQL may hand it URL-encoded. */
  private static final Pattern WILDCARD = Pattern.compile("\\*|%2A");

  private ReplacedFileGroups() {}

  /**
   * The file ids of {@code partitions} a replacecommit replaces, per partition in partition order;
   * a partition without file groups maps to an empty list, as Hudi records it.
   *
   * @param timeline the table's active timeline, loaded while the write's instant is pending
   * @param partitions the partitions replaced: insert_overwrite's are those its new files are in,
   *     insert_overwrite_table's those the table had before it wrote ({@link Table#listPartitions}),
   *     delete_partition's those it is given ({@link #resolvePartitions})
   */
  public static Map<String, List<String>> of(Table table, Timeline timeline, Collection<String> partitions) {
    Set<String> sorted = new TreeSet<>(partitions);
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (sorted.isEmpty()) {
      return out;
    }
    FileSystemView view = FileSystemViewLoader.load(table, timeline, sorted);
    sorted.forEach(p -> out.put(p, new ArrayList<>()));
    view.fileGroups().stream()
        .filter(g -> view.replaceInstant(g.id()).isEmpty() && !view.committedSlices(g).isEmpty())
        .map(FileGroup::id)
        .sorted()
        .forEach(id -> out.get(id.partitionPath()).add(id.fileId()));
    return out;
  }

  /**
   * The partitions named by {@code hoodie.datasource.write.partitions.to.delete}, with Hudi's
   * wildcards ({@code *}, or {@code %2A}) matched against the table's partitions: a named path is
   * kept as given whether or not the table has it, a pattern becomes the partitions it matches.
   */
  public static List<String> resolvePartitions(Table table, List<String> named) {
    Set<String> out = new LinkedHashSet<>();
    List<String> all = null;
    for (String p : named) {
      if (!WILDCARD.matcher(p).find()) {
        out.add(p);
        continue;
      }
      if (all == null) {
        all = table.listPartitions();
      }
      StringBuilder regex = new StringBuilder();
      for (String literal : WILDCARD.split(p, -1)) {
        if (!regex.isEmpty()) {
          regex.append(".*");
        }
        regex.append(Pattern.quote(literal));
      }
      Pattern pattern = Pattern.compile(regex.toString());
      all.stream().filter(candidate -> pattern.matcher(candidate).matches()).forEach(out::add);
    }
    return List.copyOf(out);
  }
}
