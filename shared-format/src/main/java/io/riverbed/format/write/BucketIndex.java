package io.riverbed.format.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Hudi's simple-engine bucket index (format doc §3.5): the bucket of a record key and the file ids
 * of buckets (a UUID whose first 8 characters are the bucket number, no {@code -n} suffix, as
 * Hudi's Flink writer makes them).
 */
public final class BucketIndex {
  private BucketIndex() {}

  /** {@code (javaListHashCode(hashKeys) & 0x7fffffff) % numBuckets}. */
  public static int bucket(String recordKey, List<String> hashFields, int numBuckets) {
    return (listHash(hashKeys(recordKey, hashFields)) & 0x7fffffff) % numBuckets;
  }

  static List<String> hashKeys(String recordKey, List<String> hashFields) {
    if (recordKey.indexOf(':') < 0) {
      List<String> single = new ArrayList<>(1);
      single.add(recordKey);
      return single;
    }
    List<String> out = new ArrayList<>(hashFields.size());
    String[] pairs = recordKey.split(",");
    for (String field : hashFields) {
      String value = null;
      boolean found = false;
      for (String pair : pairs) {
        int colon = pair.indexOf(':');
        if (colon >= 0 && pair.substring(0, colon).equals(field)) {
          value = pair.substring(colon + 1);
          found = true;
          break;
        }
      }
      if (!found) {
        throw new IllegalArgumentException("bucket hash field '" + field + "' is not in record key '" + recordKey + "'");
      }
      if ("__null__".equals(value)) {
        value = null;
      } else if ("__empty__".equals(value)) {
        value = "";
      }
      out.add(value);
    }
    return out;
  }

  private static int listHash(List<String> keys) {
    int h = 1;
    for (String s : keys) {
      h = 31 * h + (s == null ? 0 : s.hashCode());
    }
    return h;
  }

  /** A new file id for {@code bucket}: {@code %08d} then the rest of a random UUID. */
  public static String newFileId(int bucket) {
    return String.format("%08d", bucket) + UUID.randomUUID().toString().substring(8);
  }

  /** The bucket encoded in a bucket-index file id, or -1 if it does not start with 8 digits. */
  public static int bucketOf(String fileId) {
    Objects.requireNonNull(fileId, "fileId");
    if (fileId.length() < 9 || fileId.charAt(8) != '-') {
      return -1;
    }
    for (int i = 0; i < 8; i++) {
      if (!Character.isDigit(fileId.charAt(i))) {
        return -1;
      }
    }
    return Integer.parseInt(fileId.substring(0, 8));
  }
}
