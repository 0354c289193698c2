package io.riverbed.format.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.riverbed.format.InvalidRecordException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The confinement rule of {@link PartitionPaths} over hostile partition values, with url encoding
 * on and off and hive style on and off: an accepted value resolves to a folder below the base path
 * (checked by resolving against a base {@link Path} and by creating and listing the folder on the
 * local file system) and reads back to the same value; a refused one fails naming the record key,
 * the field and the value.
 */
class PartitionPathsConfinementTest {
  private static final Schema SCHEMA = SchemaBuilder.record("t").namespace("test").fields()
      .requiredString("id")
      .optionalString("p")
      .optionalString("q")
      .endRecord();
  private static final String REFUSED = null;

  /**
   * Expected path text per value: {@code [value, text without url encoding, text with url encoding]},
   * {@link #REFUSED} where the rule refuses it. The encodings follow Apache Hudi 0.15's
   * {@code PartitionPathEncodeUtils.escapePathName}: ASCII 0x01-0x1F and {@code " # % ' * / : = ? \ DEL
   * { [ ] ^} become {@code %XX} with upper-case hex; everything else (space, {@code & . - _ ~ < > |},
   * non-ASCII) is kept; null and empty become {@code __HIVE_DEFAULT_PARTITION__}.
   */
  static final String[][] EXPECTED = {
      {"2024-06-01", "2024-06-01", "2024-06-01"},
      {"/", REFUSED, "%2F"},
      {"a/b", "a/b", "a%2Fb"},
      {"2024/06/01", "2024/06/01", "2024%2F06%2F01"},
      {"..", REFUSED, REFUSED},
      {".", REFUSED, REFUSED},
      {"../escape", REFUSED, REFUSED},
      {"../../../../elsewhere/X", REFUSED, REFUSED},
      {"a/../b", REFUSED, "a%2F..%2Fb"},
      {"a/./b", REFUSED, "a%2F.%2Fb"},
      {"..\\x", REFUSED, REFUSED},
      {"a..b", "a..b", "a..b"},
      {"x.", "x.", "x."},
      {"%", "%", "%25"},
      {"100%25", "100%25", "100%2525"},
      {"=", "=", "%3D"},
      {"a=b", "a=b", "a%3Db"},
      {" ", " ", " "},
      {"new york", "new york", "new york"},
      {" lead and trail ", " lead and trail ", " lead and trail "},
      {"Z\u00fcrich", "Z\u00fcrich", "Z\u00fcrich"},
      {"\u6771\u4eac/\u5927\u962a", "\u6771\u4eac/\u5927\u962a", "\u6771\u4eac%2F\u5927\u962a"},
      {"\ud83d\ude00", "\ud83d\ude00", "\ud83d\ude00"},
      {"", PartitionPaths.DEFAULT_PARTITION, PartitionPaths.DEFAULT_PARTITION},
      {null, PartitionPaths.DEFAULT_PARTITION, PartitionPaths.DEFAULT_PARTITION},
      {".hoodie", REFUSED, REFUSED},
      {".hoodie_partition_metadata", REFUSED, REFUSED},
      {".hoodie/x", REFUSED, REFUSED},
      {"a/.hidden", REFUSED, "a%2F.hidden"},
      {"c:d", REFUSED, "c%3Ad"},
      {"#?&*:", REFUSED, "%23%3F&%2A%3A"},
      {"#?&*", "#?&*", "%23%3F&%2A"},
      {"file:/x", REFUSED, "file%3A%2Fx"},
      {"file:///etc/x", REFUSED, "file%3A%2F%2F%2Fetc%2Fx"},
      {"hdfs://nn:8020/x", REFUSED, "hdfs%3A%2F%2Fnn%3A8020%2Fx"},
      {"/abs", REFUSED, "%2Fabs"},
      {"a//b", REFUSED, "a%2F%2Fb"},
      {"trailing/", REFUSED, "trailing%2F"},
      {"\"'{[]}^\\", "\"'{[]}^\\", "%22%27%7B%5B%5D}%5E%5C"},
      {"tab\there", "tab\there", "tab%09here"},
      {"nul\u0000", REFUSED, "nul%00"},
      {"del\u007F", "del\u007F", "del%7F"},
      {"__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__"},
  };

  @TempDir java.nio.file.Path tmp;

  private static KeyGenerator generator(List<String> partitionFields, boolean hiveStyle, boolean urlEncode) {
    return KeyGenerator.of(KeyGeneratorOptions.of(List.of("id"), partitionFields)
        .withHiveStylePartitioning(hiveStyle).withUrlEncodePartitionPath(urlEncode));
  }

  private static GenericRecord record(String id, String p, String q) {
    var record = new GenericData.Record(SCHEMA);
    record.put("id", id);
    record.put("p", p);
    record.put("q", q);
    return record;
  }

  @Test
  void everyHostileValueIsEncodedAsHudiEncodesItOrRefused() {
    for (boolean urlEncode : new boolean[] {false, true}) {
      for (boolean hiveStyle : new boolean[] {false, true}) {
        KeyGenerator gen = generator(List.of("p"), hiveStyle, urlEncode);
        for (String[] row : EXPECTED) {
          String value = row[0];
          String text = row[urlEncode ? 2 : 1];
          String setting = "value " + PartitionPaths.quote(value) + ", urlencode=" + urlEncode + ", hive style=" + hiveStyle;
          GenericRecord record = record("key-1", value, null);
          if (text == null) {
            assertThat(catchThrowable(() -> gen.partitionPath(record))).as(setting)
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("record key \"key-1\"")
                .hasMessageContaining("partition field 'p'")
                .hasMessageContaining("value " + PartitionPaths.quote(value));
          } else {
            assertThat(gen.partitionPath(record)).as(setting).isEqualTo(hiveStyle ? "p=" + text : text);
          }
        }
      }
    }
  }

  @Test
  void acceptedValuesStayBelowTheBasePathAndReadBackExactly() throws IOException {
    Path base = new Path(tmp.toUri().toString(), "lake/table");
    FileSystem fs = base.getFileSystem(new Configuration());
    for (boolean urlEncode : new boolean[] {false, true}) {
      for (boolean hiveStyle : new boolean[] {false, true}) {
        KeyGenerator single = generator(List.of("p"), hiveStyle, urlEncode);
        KeyGenerator pair = generator(List.of("q", "p"), hiveStyle, urlEncode);
        for (String[] row : EXPECTED) {
          String value = row[0];
          if (row[urlEncode ? 2 : 1] == null) {
            continue;
          }
          String setting = "value " + PartitionPaths.quote(value) + ", urlencode=" + urlEncode + ", hive style=" + hiveStyle;
          String path = single.partitionPath(record("k", value, null));
          assertConfined(fs, base, path, setting);
          var back = new HashMap<String, String>();
          // null, empty and the default partition's own name all read back as null, as in Hudi
          boolean isDefault = value == null || value.isEmpty() || value.equals(PartitionPaths.DEFAULT_PARTITION);
          back.put("p", isDefault ? null : value);
          assertThat(single.partitionValues(path)).as(setting).isEqualTo(back);

          String pairPath = pair.partitionPath(record("k", value, "q1"));
          assertConfined(fs, base, pairPath, setting + ", after field q");
          if (urlEncode || hiveStyle || value == null || !value.contains("/")) {
            // without either, a '/' in a value of several fields is a folder level that the
            // fields cannot tell apart (as in Hudi); the value still stays inside the table
            back.put("q", "q1");
            assertThat(pair.partitionValues(pairPath)).as(setting).isEqualTo(back);
          }
        }
      }
    }
  }

  /**
   * {@code relative} resolved against {@code base} is exactly {@code base/relative}, nothing
   * normalized away, as many levels below the base path as it has segments; and the folder
   * created on a real file system lists back under that relative path.
   */
  private static void assertConfined(FileSystem fs, Path base, String relative, String setting) throws IOException {
    Path resolved = new Path(base, relative);
    assertThat(resolved.toString()).as(setting).isEqualTo(base + "/" + relative);
    int levels = relative.split("/", -1).length;
    Path up = resolved;
    for (int i = 0; i < levels; i++) {
      up = up.getParent();
    }
    assertThat(up).as(setting).isEqualTo(base);
    fs.delete(base, true);
    assertThat(fs.mkdirs(resolved)).as(setting).isTrue();
    assertThat(Files.isDirectory(java.nio.file.Path.of(resolved.toUri()))).as(setting).isTrue();
    assertThat(listFolders(fs, base, base)).as(setting).contains(relative);
    assertThat(Arrays.stream(fs.listStatus(base.getParent())).map(s -> s.getPath().getName()))
        .as(setting + ": siblings of the table folder").containsExactly("table");
  }

  private static List<String> listFolders(FileSystem fs, Path base, Path folder) throws IOException {
    var out = new ArrayList<String>();
    for (FileStatus child : fs.listStatus(folder)) {
      if (child.isDirectory()) {
        String relative = child.getPath().toUri().getPath().substring(base.toUri().getPath().length() + 1);
        out.add(relative);
        out.addAll(listFolders(fs, base, child.getPath()));
      }
    }
    return out;
  }

  @Test
  void refusedValueOfOneOfSeveralFieldsIsNamedWithTheFields() {
    KeyGenerator gen = generator(List.of("q", "p"), true, false);
    assertThatThrownBy(() -> gen.partitionPath(record("key-9", "../escape", "fine")))
        .isInstanceOf(InvalidRecordException.class)
        .hasMessageContaining("record key \"key-9\"")
        .hasMessageContaining("partition field 'p' value \"../escape\"")
        .hasMessageContaining("path segment '..' names the parent folder")
        .hasMessageContaining("partition fields [q, p]");
  }

  @Test
  void refusalNamesAValueWithControlCharactersReadably() {
    KeyGenerator gen = generator(List.of("p"), false, false);
    assertThatThrownBy(() -> gen.partitionPath(record("k\"1", "nul\u0000/..", null)))
        .hasMessageContaining("record key \"k\\\"1\"")
        .hasMessageContaining("value \"nul\\u0000/..\"");
  }

  @Test
  void segmentAppliesTheSameRule() {
    assertThat(PartitionPaths.segment("p", "a/b", true, true)).isEqualTo("p=a%2Fb");
    assertThatThrownBy(() -> PartitionPaths.segment("p", "..", true, true))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("partition field 'p' value \"..\"");
  }

  @Test
  void unescapeReadsHexAsHudisIntegerParseIntDoes() {
    Map<String, String> cases = Map.of(
        "%2F", "/",
        "%2f", "/",
        "%+F", "\u000f",
        "%-0", "\u0000",
        "%-1", "%-1",
        "%zz", "%zz",
        "a%2", "a%2",
        "%", "%",
        "100%2525", "100%25");
    cases.forEach((in, out) -> assertThat(PartitionPaths.unescapePathName(in)).as(in).isEqualTo(out));
  }
}
