package io.riverbed.admin;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.FileSystemView;
import io.riverbed.format.file.FileSystemViewLoader;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.ActiveTimeline;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code file-slices}: the latest file slice of each file group, as a snapshot query reads it. */
@Command(name = "file-slices",
    description = {"The latest file slice of each file group as a snapshot query at the latest completed instant "
        + "reads it (uncommitted files left out; the logs of a pending compaction merged onto the slice before it; "
        + "replaced file groups hidden): partition, file id, base instant, base file and size, log files and their "
        + "size."})
final class FileSlicesCommand extends TableCommand {
  @Option(names = "--partition", paramLabel = "P", description = "Only this partition (its relative path, e.g. "
      + "2024/01/01 or region=eu; \"\" for a non-partitioned table).")
  String partition;

  record Row(String partition, String fileId, String baseInstant, String baseFile, Long baseFileBytes, int logFiles,
      long logFilesBytes) {}

  @Override
  void run(Table table, Output out) {
    ActiveTimeline active = ActiveTimeline.load(table);
    FileSystemView view;
    if (partition == null) {
      view = FileSystemViewLoader.load(table, active.timeline());
    } else {
      requirePartition(table, partition);
      view = FileSystemViewLoader.load(table, active.timeline(), List.of(partition));
    }
    List<Row> rows = view.defaultQueryInstant().map(view::latestMergedSlices).orElse(List.of()).stream()
        .map(FileSlicesCommand::row).toList();
    if (out.isJson()) {
      out.json(rows);
      return;
    }
    out.table(TextTable.of(rows).column("PARTITION", Row::partition).column("FILE_ID", Row::fileId)
        .column("BASE_INSTANT", Row::baseInstant).column("BASE_FILE", Row::baseFile)
        .column("BASE_BYTES", Row::baseFileBytes).column("LOG_FILES", Row::logFiles)
        .column("LOG_BYTES", Row::logFilesBytes));
  }

  private static Row row(FileSlice s) {
    return new Row(s.partitionPath(), s.fileId(), s.baseInstant(), s.baseFile().map(BaseFile::fileName).orElse(null),
        s.baseFile().map(BaseFile::length).orElse(null), s.logFiles().size(),
        s.logFiles().stream().mapToLong(LogFile::length).sum());
  }

  private static void requirePartition(Table table, String partition) {
    var folder = table.partitionPath(partition);
    try {
      if (!partition.isEmpty() && !table.fs().getFileStatus(folder).isDirectory()) {
        throw new TableException("table " + table.basePath() + " has no partition '" + partition + "'");
      }
    } catch (java.io.FileNotFoundException e) {
      throw new TableException("table " + table.basePath() + " has no partition '" + partition + "': no folder "
          + folder);
    } catch (IOException e) {
      throw new TableException("cannot check partition '" + partition + "' of table " + table.basePath(), e);
    }
  }
}
