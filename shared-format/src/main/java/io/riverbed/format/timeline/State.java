package io.riverbed.format.timeline;

/** Life cycle of an instant; a later state supersedes an earlier one of the same instant. */
public enum State {
  REQUESTED,
  INFLIGHT,
  COMPLETED
}
