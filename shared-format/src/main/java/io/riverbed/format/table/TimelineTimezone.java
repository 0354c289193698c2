package io.riverbed.format.table;

import java.time.ZoneId;
import java.time.ZoneOffset;

/** Clock zone of instant times ({@code hoodie.table.timeline.timezone}). */
public enum TimelineTimezone {
  /** The writer JVM's default zone (Hudi's default). */
  LOCAL,
  UTC;

  public ZoneId zoneId() {
    return this == UTC ? ZoneOffset.UTC : ZoneId.systemDefault();
  }
}
