package io.riverbed.flink.index;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The state index's value for a live key: where it lives, and the ordering value of its last
 * write (null when changes are not ordered across commits). Kept as compact bytes in Flink state
 * (no Kryo, no tuple serializer): {@code partition (UTF), file id (UTF), ordering length, ordering}.
 */
record IndexEntry(String partition, String fileId, byte[] ordering) {

  byte[] toBytes() {
    var bytes = new ByteArrayOutputStream(partition.length() + fileId.length() + 16);
    try (var out = new DataOutputStream(bytes)) {
      out.writeUTF(partition);
      out.writeUTF(fileId);
      out.writeInt(ordering == null ? -1 : ordering.length);
      if (ordering != null) {
        out.write(ordering);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static IndexEntry fromBytes(byte[] bytes) {
    try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      String partition = in.readUTF();
      String fileId = in.readUTF();
      int n = in.readInt();
      byte[] ordering = null;
      if (n >= 0) {
        ordering = new byte[n];
        in.readFully(ordering);
      }
      return new IndexEntry(partition, fileId, ordering);
    } catch (IOException e) {
      throw new UncheckedIOException("damaged index state entry (" + bytes.length + " bytes)", e);
    }
  }
}
