package io.riverbed.format.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.riverbed.format.TableException;
import io.riverbed.format.file.BaseFile;
import io.riverbed.format.file.FileGroupId;
import io.riverbed.format.file.FileNames;
import io.riverbed.format.file.FileSlice;
import io.riverbed.format.file.LogFile;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Instant;
import io.riverbed.format.timeline.InstantRange;
import io.riverbed.format.timeline.State;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class SplitCodecTest {
  static final String FILE_ID = "3f1c5a2e-0000-4000-8000-000000000001-0";
  static final Path PARTITION = new Path("file:/lake/orders/2024-01-01");

  static Split split(boolean withBase, Optional<InstantRange> range) {
    Optional<BaseFile> base = withBase ? BaseFile.of(new Path(PARTITION,
        FileNames.baseFileName(FILE_ID, FileNames.UNKNOWN_WRITE_TOKEN, "20240101000000000")), 4096) : Optional.empty();
    List<LogFile> logs = List.of(
        LogFile.of(new Path(PARTITION, FileNames.logFileName(FILE_ID, "20240101000000000", 1, FileNames.UNKNOWN_WRITE_TOKEN)), 100).orElseThrow(),
        LogFile.of(new Path(PARTITION, FileNames.logFileName(FILE_ID, "20240101000000000", 2, FileNames.UNKNOWN_WRITE_TOKEN)), 200).orElseThrow());
    return new Split(new FileSlice(new FileGroupId("2024-01-01", FILE_ID), "20240101000000000", base, logs),
        "20240102000000000", range);
  }

  static byte[] encode(Split split, PlanContext plan) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    SplitCodec.writeSplit(split, out);
    SplitCodec.writePlan(plan, out);
    return bytes.toByteArray();
  }

  @Test
  void aSplitAndItsPlanReadBackAsWritten() throws IOException {
    PlanContext plan = new PlanContext("{\"type\":\"record\",\"name\":\"r\",\"fields\":[]}",
        List.of(new Instant("20240101000000000", Action.DELTA_COMMIT, State.COMPLETED),
            new Instant("20240102000000000", Action.COMPACTION, State.REQUESTED)),
        Optional.of("20240101000000000"));
    assertThat(split(true, Optional.empty()).slice().baseFile()).isPresent();
    for (Split split : List.of(split(true, Optional.empty()),
        split(false, Optional.of(new InstantRange("20240101000000000", false, "20240102000000000"))))) {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(encode(split, plan)));
      assertThat(SplitCodec.readSplit(in, "s1")).isEqualTo(split);
      assertThat(SplitCodec.readPlan(in)).isEqualTo(plan);
      assertThat(in.available()).isZero();
    }
  }

  @Test
  void aFileNameThatIsNoLogFileIsRefusedNamingTheSplit() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF("2024-01-01");
    out.writeUTF(FILE_ID);
    out.writeUTF("20240101000000000");
    out.writeBoolean(false);
    out.writeLong(0);
    out.writeInt(1);
    out.writeUTF("file:/lake/orders/2024-01-01/notes.txt");
    out.writeLong(1);
    assertThatThrownBy(() -> SplitCodec.readSplit(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), "s7"))
        .isInstanceOf(TableException.class).hasMessageContaining("split s7").hasMessageContaining("notes.txt");
  }
}
