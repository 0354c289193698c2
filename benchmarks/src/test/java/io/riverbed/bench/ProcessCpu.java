package io.riverbed.bench;

import java.lang.management.ManagementFactory;

/**
 * CPU time of this whole process (all threads, GC and JIT included), in nanoseconds. On a shared
 * machine it is less disturbed by other processes than wall time, and in local Spark or a
 * MiniCluster it counts all of a query's or a job's work, since everything runs in this JVM.
 */
final class ProcessCpu {
  private ProcessCpu() {}

  static long nanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    throw new IllegalStateException("process CPU time is not available on this JVM: " + os.getClass());
  }
}
