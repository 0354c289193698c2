package io.riverbed.format.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.riverbed.format.CorruptFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * One snapshot version of Hudi 1.x's LSM history: the data files that make it up, as Hudi's
 * {@code HoodieLSMTimelineManifest} writes it to {@code manifest_<N>} (Jackson's default pretty
 * printer over {@code {"files": [{"fileName", "fileLen"}]}}) and reads it back (unknown fields
 * ignored, empty content an empty manifest).
 *
 * @param files the data files, in the order they were added
 */
public record LsmManifest(List<FileEntry> files) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A data file of the history and its length in bytes. */
  public record FileEntry(String fileName, long fileLen) {
    public FileEntry {
      Objects.requireNonNull(fileName, "fileName");
    }
  }

  public LsmManifest {
    files = List.copyOf(files);
  }

  public static LsmManifest empty() {
    return new LsmManifest(List.of());
  }

  /** The file names, in manifest order. */
  public List<String> fileNames() {
    return files.stream().map(FileEntry::fileName).toList();
  }

  /** This manifest without {@code removed} and with {@code added} last, as Hudi's {@code copy(...).addFile(...)}. */
  public LsmManifest replace(Collection<String> removed, FileEntry added) {
    List<FileEntry> next = new ArrayList<>();
    files.stream().filter(f -> !removed.contains(f.fileName())).forEach(next::add);
    next.add(added);
    return new LsmManifest(next);
  }

  /** The manifest's bytes as Hudi writes them (UTF-8 JSON, Jackson's default pretty printer). */
  public byte[] toBytes() {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode array = root.putArray("files");
    for (FileEntry f : files) {
      array.addObject().put("fileName", f.fileName()).put("fileLen", f.fileLen());
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root).getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write an LSM manifest", e);
    }
  }

  /**
   * Reads a manifest's bytes.
   *
   * @param source names the file in errors
   * @throws CorruptFileException if the bytes are not a manifest
   */
  public static LsmManifest fromBytes(byte[] bytes, String source) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (text.isEmpty()) {
      return empty();
    }
    try {
      JsonNode root = JSON.readTree(text);
      List<FileEntry> files = new ArrayList<>();
      for (JsonNode f : root.path("files")) {
        JsonNode name = f.get("fileName");
        if (name == null || !name.isTextual()) {
          throw new CorruptFileException("LSM manifest " + source + " has a file entry without fileName: " + f);
        }
        files.add(new FileEntry(name.asText(), f.path("fileLen").asLong(0)));
      }
      return new LsmManifest(files);
    } catch (IOException e) {
      throw new CorruptFileException("LSM manifest " + source + " is not JSON: " + e.getMessage(), e);
    }
  }
}
