package io.riverbed.flink.compact;

import io.riverbed.format.TableException;
import io.riverbed.format.timeline.CompactionOperation;
import io.riverbed.format.timeline.WriteStat;
import io.riverbed.format.write.commit.CommitMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.util.function.ThrowingConsumer;

/**
 * What travels through the compaction stage, as bytes (Flink's {@code byte[]} type, so no
 * operator needs a generic serializer): the writer's coordinator id, one event per operation of a
 * plan, and one result per operation. Public for the stream writer, which sends the first.
 *
 * <p>Byte form, big-endian: {@code byte} kind, then per kind the fields below; strings and byte
 * blocks as an {@code int} length and the bytes (UTF-8 for strings).
 */
public sealed interface CompactionEvent {
  byte WRITER_COORDINATOR = 1;
  byte OPERATION = 2;
  byte RESULT = 3;

  byte[] toBytes();

  /**
   * Writer → plan operator → compaction tasks → committer: the operator id of the writer, whose
   * coordinator the stage asks when it may start and when the writers are done. The writers learn
   * it at run time; nothing else in the stage could.
   */
  record WriterCoordinator(OperatorID operatorId) implements CompactionEvent {
    public WriterCoordinator {
      Objects.requireNonNull(operatorId, "operatorId");
    }

    @Override
    public byte[] toBytes() {
      return encode(WRITER_COORDINATOR, out -> writeBlock(out, operatorId.getBytes()));
    }
  }

  /**
   * Plan operator → a compaction task: merge operation {@code index} of the {@code count}
   * operations of compaction {@code instant}, begun by run {@code generation} of the plan operator
   * (every begin, after a restore too, has a greater one).
   */
  record Operation(String instant, long generation, int index, int count, CompactionOperation operation)
      implements CompactionEvent {
    public Operation {
      Objects.requireNonNull(instant, "instant");
      Objects.requireNonNull(operation, "operation");
    }

    @Override
    public byte[] toBytes() {
      return encode(OPERATION, out -> {
        writeHeader(out, instant, generation, index, count);
        writeBlock(out, operation.toBytes());
      });
    }
  }

  /**
   * Compaction task → committer: operation {@code index} of {@code instant}'s run
   * {@code generation} wrote {@code stat} (empty: the file group needed no file), or failed with
   * {@code failure} after its last attempt.
   */
  record Result(String instant, long generation, int index, int count, Optional<WriteStat> stat,
      Optional<String> failure) implements CompactionEvent {
    public Result {
      Objects.requireNonNull(instant, "instant");
      Objects.requireNonNull(stat, "stat");
      Objects.requireNonNull(failure, "failure");
    }

    static Result of(Operation operation, Optional<WriteStat> stat) {
      return new Result(operation.instant(), operation.generation(), operation.index(), operation.count(), stat,
          Optional.empty());
    }

    static Result failed(Operation operation, String failure) {
      return new Result(operation.instant(), operation.generation(), operation.index(), operation.count(),
          Optional.empty(), Optional.of(failure));
    }

    boolean isFailed() {
      return failure.isPresent();
    }

    @Override
    public byte[] toBytes() {
      return encode(RESULT, out -> {
        writeHeader(out, instant, generation, index, count);
        // the stat in the core's task-to-committer codec: the commit message of task `index`
        writeBlock(out, CommitMessage.of(index, instant, stat.map(List::of).orElse(List.of())).toBytes());
        writeString(out, failure.orElse(""));
      });
    }
  }

  /**
   * Reads {@link #toBytes()}'s bytes.
   *
   * @throws TableException if they are not an event of a known kind
   */
  static CompactionEvent fromBytes(byte[] bytes) {
    try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      byte kind = in.readByte();
      CompactionEvent event = switch (kind) {
        case WRITER_COORDINATOR -> new WriterCoordinator(new OperatorID(readBlock(in)));
        case OPERATION -> {
          String instant = readString(in);
          long generation = in.readLong();
          int index = in.readInt();
          int count = in.readInt();
          yield new Operation(instant, generation, index, count, CompactionOperation.fromBytes(readBlock(in),
              "operation " + index + " of compaction " + instant));
        }
        case RESULT -> {
          String instant = readString(in);
          long generation = in.readLong();
          int index = in.readInt();
          int count = in.readInt();
          List<WriteStat> stats = CommitMessage.fromBytes(readBlock(in)).writeStats();
          String failure = readString(in);
          yield new Result(instant, generation, index, count, stats.stream().findFirst(),
              failure.isEmpty() ? Optional.empty() : Optional.of(failure));
        }
        default -> throw new TableException("unknown compaction event kind " + kind + " (" + bytes.length + " bytes)");
      };
      if (in.read() != -1) {
        throw new TableException("compaction event " + event.getClass().getSimpleName() + " has bytes after its end");
      }
      return event;
    } catch (IOException e) {
      throw new TableException("cannot read a compaction event of " + bytes.length + " bytes: it is truncated", e);
    }
  }

  private static byte[] encode(byte kind, ThrowingConsumer<DataOutputStream, IOException> body) {
    var bytes = new ByteArrayOutputStream();
    try (var out = new DataOutputStream(bytes)) {
      out.writeByte(kind);
      body.accept(out);
    } catch (IOException e) {
      throw new TableException("cannot serialize a compaction event of kind " + kind, e);
    }
    return bytes.toByteArray();
  }

  private static void writeHeader(DataOutputStream out, String instant, long generation, int index, int count)
      throws IOException {
    writeString(out, instant);
    out.writeLong(generation);
    out.writeInt(index);
    out.writeInt(count);
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    writeBlock(out, s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static String readString(DataInputStream in) throws IOException {
    return new String(readBlock(in), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static void writeBlock(DataOutputStream out, byte[] block) throws IOException {
    out.writeInt(block.length);
    out.write(block);
  }

  private static byte[] readBlock(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      throw new IOException("negative length " + length);
    }
    byte[] block = new byte[length];
    in.readFully(block);
    return block;
  }
}
