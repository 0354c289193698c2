package io.riverbed.format.timeline;

import io.riverbed.format.TableException;

/**
 * A timeline listing went stale while it was used: an instant it lists was removed since (archived
 * after it completed). The caller lists the timeline again and redoes the work.
 */
public class TimelineChangedException extends TableException {
  public TimelineChangedException(String message) {
    super(message);
  }
}
