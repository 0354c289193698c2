package io.riverbed.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run of {@link FlinkIndexScaleBenchmark}: what Flink, the generator and the memory sampler
 * recorded, the report's tables, and the checks against the same run's baselines.
 */
record ScaleRun(Path table, Path checkpoints, long startNanos, long endNanos, double cpuSeconds, double loadStart,
    double loadEnd, ScaleEvents.Probe probe, CheckpointStatsCollector stats,
    List<FlinkIndexScaleBenchmark.MemorySample> memory, long peakAfterGcBytes, long peakUsedBytes, long gcMillis,
    FlinkIndexScaleBenchmark.Duration interval, long keys) {

  /** A completed checkpoint with what the generator emitted before its barrier and after the previous one. */
  record Checkpoint(CheckpointStatsCollector.Completed stats, long changedKeys, long events, long keysInIndex, int phase) {
    double uploadedPerChangedKey() {
      return changedKeys == 0 ? Double.NaN : (double) stats.uploadedBytes() / changedKeys;
    }
  }

  /** Inserting one bucket of keys: records/s, CPU per million records, the memory seen meanwhile. */
  record Bucket(long firstKey, long lastKey, double seconds, double recordsPerSecond, double cpuSecondsPerMillion,
      long maxHeapAfterGc, long maxResident) {}

  List<Checkpoint> checkpointList() {
    List<Checkpoint> out = new ArrayList<>();
    long inIndex = 0;
    Map<Integer, Long> phaseStarts = probe.phaseStarts;
    for (CheckpointStatsCollector.Completed c : stats.completed()) {
      long id = c.id();
      long inserts = probe.inserts.getOrDefault(id, 0L);
      inIndex += inserts;
      long events = probe.events.getOrDefault(id, 0L);
      int phase = -1;
      if (inserts == 0 && events > 0) {
        double at = c.atSeconds();
        for (var p : phaseStarts.entrySet()) {
          if ((p.getValue() - startNanos) / 1e9 <= at) {
            phase = Math.max(phase, p.getKey());
          }
        }
      }
      out.add(new Checkpoint(c, probe.changedKeys.getOrDefault(id, 0L), events, inIndex, phase));
    }
    return out;
  }

  /** When the generator finished inserting (its first hot event), or the job's end. */
  long growthEndNanos() {
    Long hot = probe.phaseStarts.get(0);
    return hot != null ? hot : endNanos;
  }

  double growthSeconds() {
    long[] first = probe.milestones.get(0L);
    return (growthEndNanos() - (first == null ? startNanos : first[0])) / 1e9;
  }

  List<Bucket> buckets() {
    List<Bucket> out = new ArrayList<>();
    long size = ScaleEvents.MILESTONE_KEYS;
    long count = (keys + size - 1) / size;
    for (long m = 0; m < count; m++) {
      long[] from = probe.milestones.get(m);
      long[] to = m + 1 < count ? probe.milestones.get(m + 1) : null;
      if (from == null || (m + 1 < count && to == null)) {
        continue;
      }
      long toNanos = to == null ? growthEndNanos() : to[0];
      long toCpu = to == null ? -1 : to[1];
      long lastKey = Math.min(keys, (m + 1) * size);
      double events = (lastKey - m * size) * 5 / 4.0;
      double seconds = (toNanos - from[0]) / 1e9;
      long heap = 0;
      long rss = 0;
      for (var s : memory) {
        if (s.nanos() >= from[0] && s.nanos() <= toNanos) {
          heap = Math.max(heap, s.heapAfterGcBytes());
          rss = Math.max(rss, s.residentBytes());
        }
      }
      out.add(new Bucket(m * size, lastKey, seconds, events / seconds,
          toCpu < 0 ? Double.NaN : (toCpu - from[1]) / 1e9 / (events / 1e6), heap, rss));
    }
    return out;
  }

  Samples uploaded() {
    Samples s = new Samples("uploaded bytes");
    checkpointList().forEach(c -> s.add(c.stats().uploadedBytes()));
    return s;
  }

  double uploadedTotal() {
    return checkpointList().stream().mapToLong(c -> c.stats().uploadedBytes()).sum();
  }

  double maxDurationMillis() {
    return checkpointList().stream().mapToLong(c -> c.stats().endToEndMillis()).max().orElse(0);
  }

  void report(Report report, String backend, ScaleStream stream, FlinkIndexScaleBenchmark.Duration interval) {
    List<Checkpoint> list = checkpointList();
    report.line("");
    report.format("### %s index: %,d keys", switch (backend) {
      case "heap" -> "Heap (Flink's default)";
      case "rocksdb-flink-levels" -> "RocksDB with Flink's level and file sizes";
      case "rocksdb-small-levels" -> "RocksDB with dynamic level sizes, 16 MB base level, 2 MB files";
      case "rocksdb-universal" -> "RocksDB with universal compaction";
      case "rocksdb-changelog" -> "RocksDB behind Flink's changelog state backend";
      default -> "RocksDB (Riverbed's settings)";
    }, keys);
    report.line("");
    report.format("- job %.1f s (growth %.1f s), process CPU %.1f s, load average %.1f at its start, %.1f at its end; "
            + "%d checkpoints completed, %d failed%s", (endNanos - startNanos) / 1e9, growthSeconds(), cpuSeconds, loadStart,
        loadEnd, list.size(), stats.failed(), stats.pollError() == null ? "" : "; last poll error: " + stats.pollError());
    report.format("- heap: peak after GC %.0f MB, peak used %.0f MB (max heap %d MB), GC %.1f s; keys emitted after the "
            + "last barrier (not in any checkpoint's count): %,d", peakAfterGcBytes / 1e6, peakUsedBytes / 1e6,
        Runtime.getRuntime().maxMemory() >> 20, gcMillis / 1000.0, probe.unattributedKeys.get());
    report.line("");
    report.line("| checkpoint | at s | keys in index | keys changed | events | end-to-end ms | index sync / async max ms "
        + "| writer sync max ms | alignment max ms | uploaded MB | of it index MB | full state MB | index state MB "
        + "| uploaded B / changed key | phase |");
    report.line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (Checkpoint c : list) {
      var s = c.stats();
      report.format("| %d | %.0f | %,d | %,d | %,d | %,d | %,d / %,d | %,d | %,d | %.2f | %.2f | %.1f | %.1f | %.0f | %s |",
          s.id(), s.atSeconds(), c.keysInIndex(), c.changedKeys(), c.events(), s.endToEndMillis(), s.indexSyncMillis(),
          s.indexAsyncMillis(), s.writerSyncMillis(), s.maxAlignmentMillis(), s.uploadedBytes() / 1e6, s.indexUploadedBytes() / 1e6,
          s.stateBytes() / 1e6, s.indexStateBytes() / 1e6, c.uploadedPerChangedKey(),
          c.phase() < 0 ? (c.events() == 0 ? "idle" : "growth") : "hot " + stream.hotRates[c.phase()] + "/s");
    }
    report.line("");
    report.line("| keys inserted | s | records/s | CPU s per M records | max heap after GC MB | max resident MB |");
    report.line("|---|---:|---:|---:|---:|---:|");
    for (Bucket b : buckets()) {
      report.format("| %.1fM–%.1fM | %.1f | %,.0f | %s | %.0f | %.0f |", b.firstKey() / 1e6, b.lastKey() / 1e6, b.seconds(),
          b.recordsPerSecond(), Double.isNaN(b.cpuSecondsPerMillion()) ? "–"
              : String.format(java.util.Locale.ROOT, "%.1f", b.cpuSecondsPerMillion()),
          b.maxHeapAfterGc() / 1e6, b.maxResident() / 1e6);
    }
    report.line("");
    for (String check : checks(interval)) {
      report.line("- " + check);
    }
  }

  /** The checks' statements (figures and verdicts), failures marked "NOT MET". */
  List<String> checks(FlinkIndexScaleBenchmark.Duration interval) {
    List<String> out = new ArrayList<>();
    List<Checkpoint> list = checkpointList();
    long maxMillis = (long) maxDurationMillis();
    long over = list.stream().filter(c -> c.stats().endToEndMillis() > interval.millis()).count();
    out.add(String.format(java.util.Locale.ROOT, "checkpoint duration: max %,d ms = **%.2f** of the %,d ms interval; %d of %d "
            + "checkpoints longer than the interval: %s", maxMillis, maxMillis / (double) interval.millis(), interval.millis(),
        over, list.size(), over == 0 ? "met" : "NOT MET"));
    Samples early = new Samples("early growth");
    Samples late = new Samples("late growth");
    Samples hot = new Samples("hot");
    long[] earlySums = new long[2];
    long[] lateSums = new long[2];
    long[] hotSums = new long[2];
    for (Checkpoint c : list) {
      if (c.changedKeys() < 1000) {
        continue;
      }
      Samples into;
      long[] sums;
      if (c.phase() >= 0) {
        into = hot;
        sums = hotSums;
      } else if (c.keysInIndex() <= keys / 3) {
        into = early;
        sums = earlySums;
      } else if (c.keysInIndex() >= keys * 2 / 3) {
        into = late;
        sums = lateSums;
      } else {
        continue;
      }
      into.add(c.uploadedPerChangedKey());
      sums[0] += c.stats().uploadedBytes();
      sums[1] += c.changedKeys();
    }
    if (early.size() > 0 && late.size() > 0) {
      double ratio = late.median() / early.median();
      double amortized = perKey(lateSums) / perKey(earlySums);
      out.add(String.format(java.util.Locale.ROOT, "bytes uploaded per changed key, growth: %.0f B (median of %d checkpoints "
              + "up to a third of the keys; all their bytes / all their changed keys: %.0f B) -> %.0f B (median of %d from two "
              + "thirds on; all bytes / all keys: %.0f B): ratio of medians **%.2f**, of the totals **%.2f** (%s)",
          early.median(), early.size(), perKey(earlySums), late.median(), late.size(), perKey(lateSums), ratio, amortized,
          Math.max(ratio, amortized) <= 1.5 ? "flat: met" : "grows with the keys: NOT MET"));
    }
    if (early.size() > 0 && hot.size() > 0) {
      double ratio = hot.median() / early.median();
      double amortized = perKey(hotSums) / perKey(earlySums);
      out.add(String.format(java.util.Locale.ROOT, "bytes uploaded per changed key, hot updates with all %,d keys indexed: "
              + "%.0f B (median of %d checkpoints, range %.0f–%.0f; all their bytes / all their changed keys: %.0f B) = "
              + "**%.2f** of early growth's median, **%.2f** of its total (%s)", keys, hot.median(), hot.size(), hot.min(),
          hot.max(), perKey(hotSums), ratio, amortized,
          Math.max(ratio, amortized) <= 1.5 ? "proportional to the keys changed: met" : "NOT MET"));
    }
    java.util.TreeMap<Integer, long[]> byPhase = new java.util.TreeMap<>(); // phase -> {uploaded, changed, checkpoints}
    for (Checkpoint c : list) {
      if (c.phase() >= 0 && c.changedKeys() >= 1000) {
        long[] sums = byPhase.computeIfAbsent(c.phase(), p -> new long[3]);
        sums[0] += c.stats().uploadedBytes();
        sums[1] += c.changedKeys();
        sums[2]++;
      }
    }
    if (byPhase.size() >= 2) {
      StringBuilder phases = new StringBuilder();
      for (var p : byPhase.entrySet()) {
        long[] v = p.getValue();
        phases.append(String.format(java.util.Locale.ROOT, "%s%,d changed keys per checkpoint: %.1f MB uploaded per checkpoint, "
                + "%.0f B per changed key (%d checkpoints)", phases.length() == 0 ? "" : "; ", v[1] / v[2], v[0] / 1e6 / v[2],
            (double) v[0] / v[1], v[2]));
      }
      long[] low = byPhase.firstEntry().getValue();
      long[] high = byPhase.lastEntry().getValue();
      double keysRatio = ((double) high[1] / high[2]) / ((double) low[1] / low[2]);
      double bytesRatio = ((double) high[0] / high[2]) / ((double) low[0] / low[2]);
      out.add(String.format(java.util.Locale.ROOT, "hot phases, same %,d keys indexed: %s. %.1fx the changed keys -> %.1fx "
          + "the upload per checkpoint (**%.2f** of proportional)", keys, phases, keysRatio, bytesRatio, bytesRatio / keysRatio));
    }
    List<Bucket> buckets = buckets();
    if (buckets.size() >= 2) {
      Bucket first = buckets.get(0);
      Bucket last = buckets.get(buckets.size() - 1);
      double ratio = last.recordsPerSecond() / first.recordsPerSecond();
      out.add(String.format(java.util.Locale.ROOT, "throughput, last bucket of keys / first: %,.0f / %,.0f records/s = "
          + "**%.2f** (%s)", last.recordsPerSecond(), first.recordsPerSecond(), ratio, ratio >= 0.5 ? "no collapse: met"
          : "NOT MET"));
      double heapRatio = (double) last.maxHeapAfterGc() / Math.max(1, first.maxHeapAfterGc());
      out.add(String.format(java.util.Locale.ROOT, "heap after GC, last bucket / first: %.0f / %.0f MB = **%.2f**; resident "
              + "memory %.0f / %.0f MB", last.maxHeapAfterGc() / 1e6, first.maxHeapAfterGc() / 1e6, heapRatio,
          last.maxResident() / 1e6, first.maxResident() / 1e6));
    }
    if (!list.isEmpty()) {
      Checkpoint lastCheckpoint = list.get(list.size() - 1);
      long indexBytes = lastCheckpoint.stats().indexStateBytes();
      out.add(String.format(java.util.Locale.ROOT, "index state: %.1f MB for %,d keys = **%.1f B per key** (the bucket "
              + "assigner's state in the last checkpoint; the whole checkpoint describes %.1f MB)", indexBytes / 1e6, keys,
          (double) indexBytes / keys, lastCheckpoint.stats().stateBytes() / 1e6));
    }
    return out;
  }

  private static double perKey(long[] sums) {
    return sums[1] == 0 ? Double.NaN : (double) sums[0] / sums[1];
  }

  List<String> failures() {
    return checks(interval).stream().filter(s -> s.contains("NOT MET")).toList();
  }

  /** Fails the benchmark when the table read back is not one row per key with each key's last value. */
  void check(ReadBack read) {
    if (read.rows() != keys || read.distinctKeys() != keys || read.duplicates() != 0 || read.staleRows() != 0
        || read.sampleMismatches() != 0) {
      throw new AssertionError("table " + table + " read back wrong: " + read);
    }
  }
}
