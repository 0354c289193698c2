package io.riverbed.format.write;

import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.InstantTime;
import io.riverbed.format.timeline.Timeline;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * New instant times for a table: strictly greater than every instant of its active timeline and
 * than every time handed out before in this JVM for the same zone.
 */
public final class InstantClock {
  private static final Map<ZoneId, InstantTime> GENERATORS = new ConcurrentHashMap<>();

  private InstantClock() {}

  public static InstantTime forTable(Table table) {
    return GENERATORS.computeIfAbsent(table.config().timelineTimezone().zoneId(), InstantTime::generator);
  }

  /** A time after every instant of {@code timeline} (and every completion time it names), from {@code generator}. */
  public static String next(InstantTime generator, Timeline timeline) {
    return generator.nextAfter(timeline.latestTime());
  }
}
