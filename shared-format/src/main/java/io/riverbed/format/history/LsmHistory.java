package io.riverbed.format.history;

import io.riverbed.format.CorruptFileException;
import io.riverbed.format.TableException;
import io.riverbed.format.timeline.TimelineSchemas;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The folder of Hudi 1.x's LSM history ({@code .hoodie/timeline/history/} of a table version 8),
 * read and written file by file as Hudi 1.0.2's {@code LSMTimeline} and {@code LSMTimelineWriter}
 * do: Parquet data files of {@code HoodieLSMTimelineInstant} rows, one {@code manifest_<N>} per
 * snapshot version listing the data files that make it up, and {@code _version_} holding the
 * latest N. A reader takes the version from {@code _version_} (or, if that is missing or
 * unreadable, the highest manifest listed) and reads only the files its manifest names, so a data
 * file or manifest a crashed writer left half done is never read.
 */
public final class LsmHistory {
  private static final Logger LOG = LoggerFactory.getLogger(LsmHistory.class);

  private final FileSystem fs;
  private final Path folder;

  private LsmHistory(FileSystem fs, Path folder) {
    this.fs = fs;
    this.folder = folder;
  }

  /** The history in {@code folder}; nothing is read yet. */
  public static LsmHistory at(FileSystem fs, Path folder) {
    return new LsmHistory(Objects.requireNonNull(fs, "fs"), Objects.requireNonNull(folder, "folder"));
  }

  public Path folder() {
    return folder;
  }

  public FileSystem fs() {
    return fs;
  }

  public Path pathOf(String fileName) {
    return new Path(folder, fileName);
  }

  /** The latest snapshot version: {@code _version_}'s, else the highest manifest's; -1 when there is none. */
  public int latestVersion() {
    Path versionFile = pathOf(LsmFileName.VERSION_FILE);
    try (InputStream in = fs.open(versionFile)) {
      return Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
    } catch (FileNotFoundException e) {
      LOG.debug("No {} in {}: listing the manifests", LsmFileName.VERSION_FILE, folder);
    } catch (IOException | NumberFormatException e) {
      LOG.warn("Cannot read {}; listing the manifests instead", versionFile, e);
    }
    return versions().stream().mapToInt(Integer::intValue).max().orElse(-1);
  }

  /** Every snapshot version with a manifest file. */
  public List<Integer> versions() {
    List<Integer> versions = new ArrayList<>();
    for (FileStatus st : list()) {
      LsmFileName.manifestVersion(st.getPath().getName()).ifPresent(versions::add);
    }
    return versions;
  }

  /** The manifest of {@code version}; empty for a negative version. */
  public LsmManifest manifest(int version) {
    if (version < 0) {
      return LsmManifest.empty();
    }
    Path path = pathOf(LsmFileName.manifest(version));
    try (InputStream in = fs.open(path)) {
      return LsmManifest.fromBytes(in.readAllBytes(), path.toString());
    } catch (FileNotFoundException e) {
      throw new CorruptFileException("LSM history " + folder + ": manifest " + path.getName() + " of its version "
          + version + " is missing", e);
    } catch (IOException e) {
      throw new TableException("cannot read LSM manifest " + path, e);
    }
  }

  /** The manifest of the latest snapshot version. */
  public LsmManifest latestManifest() {
    return manifest(latestVersion());
  }

  /** Whether the latest snapshot names any data file. */
  public boolean hasInstants() {
    return !latestManifest().files().isEmpty();
  }

  /** Every {@code HoodieLSMTimelineInstant} row of the latest snapshot's files, in file order. */
  public List<GenericRecord> readAll() {
    List<GenericRecord> rows = new ArrayList<>();
    for (String name : latestManifest().fileNames()) {
      rows.addAll(read(name));
    }
    return rows;
  }

  /** The rows of one data file, read with Hudi's schema. */
  public List<GenericRecord> read(String fileName) {
    Path path = pathOf(fileName);
    var conf = new org.apache.hadoop.conf.Configuration(fs.getConf());
    AvroReadSupport.setRequestedProjection(conf, TimelineSchemas.LSM_TIMELINE_INSTANT);
    AvroReadSupport.setAvroReadSchema(conf, TimelineSchemas.LSM_TIMELINE_INSTANT);
    List<GenericRecord> rows = new ArrayList<>();
    try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
        HadoopInputFile.fromPath(path, conf)).withDataModel(GenericData.get()).withConf(conf).build()) {
      for (GenericRecord r = reader.read(); r != null; r = reader.read()) {
        rows.add(r);
      }
    } catch (FileNotFoundException e) {
      throw new CorruptFileException("LSM history " + folder + ": data file " + fileName
          + " named by its manifest is missing", e);
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException("cannot read LSM history file " + path + ": " + e.getMessage(), e);
    }
    return rows;
  }

  /** Writes {@code rows} as the Parquet data file {@code fileName} (Hudi's default codec, gzip), replacing a leftover. */
  void write(String fileName, List<GenericRecord> rows) {
    Path path = pathOf(fileName);
    deleteIfExists(path);
    try {
      fs.mkdirs(folder);
      try (ParquetWriter<GenericRecord> writer = AvroParquetWriter.<GenericRecord>builder(
          HadoopOutputFile.fromPath(path, fs.getConf()))
          .withSchema(TimelineSchemas.LSM_TIMELINE_INSTANT)
          .withDataModel(GenericData.get())
          .withConf(fs.getConf())
          .withCompressionCodec(CompressionCodecName.GZIP)
          .withWriteMode(ParquetFileWriter.Mode.CREATE)
          .build()) {
        for (GenericRecord row : rows) {
          writer.write(row);
        }
      }
    } catch (IOException e) {
      throw new TableException("cannot write LSM history file " + path, e);
    }
  }

  /** The manifest entry of a data file on storage (its length). */
  LsmManifest.FileEntry entryOf(String fileName) {
    try {
      return new LsmManifest.FileEntry(fileName, fs.getFileStatus(pathOf(fileName)).getLen());
    } catch (IOException e) {
      throw new TableException("cannot stat LSM history file " + pathOf(fileName), e);
    }
  }

  /**
   * Makes {@code manifest} the next snapshot version after {@code current}: writes
   * {@code manifest_<current+1>} (replacing a leftover of a crashed run) and then {@code _version_}; {@code afterManifest} runs between the two (failure tests).
   */
  int commit(LsmManifest manifest, int current, Runnable afterManifest) {
    int next = current < 0 ? 1 : current + 1;
    createReplacing(pathOf(LsmFileName.manifest(next)), manifest.toBytes());
    afterManifest.run();
    Path versionFile = pathOf(LsmFileName.VERSION_FILE);
    deleteIfExists(versionFile);
    createReplacing(versionFile, String.valueOf(next).getBytes(StandardCharsets.UTF_8));
    return next;
  }

  /** Data files on storage (listed, whether or not a manifest names them). */
  List<String> dataFilesOnStorage() {
    return list().stream().map(st -> st.getPath().getName()).filter(n -> LsmFileName.parse(n).isPresent()).toList();
  }

  void deleteIfExists(Path path) {
    try {
      if (fs.exists(path)) {
        fs.delete(path, false);
        LOG.debug("Deleted {} (left by an earlier run or no longer in a retained snapshot)", path);
      }
    } catch (IOException e) {
      throw new TableException("cannot delete LSM history file " + path, e);
    }
  }

  private void createReplacing(Path path, byte[] content) {
    deleteIfExists(path);
    try (OutputStream out = fs.create(path, false)) {
      out.write(content);
    } catch (IOException e) {
      throw new TableException("cannot write LSM history file " + path, e);
    }
  }

  private List<FileStatus> list() {
    try {
      List<FileStatus> files = new ArrayList<>();
      for (FileStatus st : fs.listStatus(folder)) {
        if (st.isFile()) {
          files.add(st);
        }
      }
      return files;
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw new TableException("cannot list LSM history " + folder, e);
    }
  }

  /** A data file's name parsed, or an error naming the folder. */
  static LsmFileName nameOf(String fileName, Path folder) {
    Optional<LsmFileName> parsed = LsmFileName.parse(fileName);
    return parsed.orElseThrow(() -> new CorruptFileException("LSM history " + folder + " names " + fileName
        + ", which is not a data file name <min>_<max>_<layer>.parquet"));
  }
}
