package io.riverbed.format.file;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** All slices of one file group that storage holds, newest base instant first. */
public final class FileGroup {
  private final FileGroupId id;
  private final TreeMap<String, FileSlice> slices = new TreeMap<>(Comparator.reverseOrder());

  FileGroup(FileGroupId id) {
    this.id = id;
  }

  public FileGroupId id() {
    return id;
  }

  void addBaseFile(BaseFile file) {
    FileSlice s = slice(file.instantTime());
    slices.put(file.instantTime(), new FileSlice(id, s.baseInstant(), Optional.of(file), s.logFiles()));
  }

  /** Adds a log file to the slice based on {@code sliceInstant} (its name's instant in table version 6). */
  void addLogFile(LogFile file, String sliceInstant) {
    FileSlice s = slice(sliceInstant);
    List<LogFile> logs = new ArrayList<>(s.logFiles());
    logs.add(file);
    slices.put(sliceInstant, new FileSlice(id, s.baseInstant(), s.baseFile(), logs));
  }

  /** The base instant of the newest slice based at or before {@code time}, if any. */
  Optional<String> sliceAtOrBefore(String time) {
    return Optional.ofNullable(slices.ceilingKey(time));
  }

  /** The base instant of the newest slice, if any. */
  Optional<String> newestSlice() {
    return slices.isEmpty() ? Optional.empty() : Optional.of(slices.firstKey());
  }

  void ensureSlice(String baseInstant) {
    slices.computeIfAbsent(baseInstant, b -> new FileSlice(id, b, Optional.empty(), List.of()));
  }

  private FileSlice slice(String baseInstant) {
    return slices.computeIfAbsent(baseInstant, b -> new FileSlice(id, b, Optional.empty(), List.of()));
  }

  /** Slices, newest first. */
  public List<FileSlice> slices() {
    return List.copyOf(slices.values());
  }
}
