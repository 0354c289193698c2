package io.riverbed.spark.sql.procedures;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;
import io.riverbed.format.timeline.Action;
import io.riverbed.format.timeline.Timeline;
import java.util.Arrays;
import java.util.List;

/**
 * The savepoints a {@code delete_savepoint} or {@code rollback_to_savepoint} call names, as Hudi 0.15
 * chooses them: the {@code instant_time} given (comma-separated where several are allowed), or the
 * latest completed savepoint when it is empty.
 */
final class SavepointChoice {
  private SavepointChoice() {}

  static List<String> chosen(Table table, String procedure, String instantTimes) {
    Timeline savepoints = table.refreshTimeline().ofAction(Action.SAVEPOINT).completed();
    if (savepoints.instants().isEmpty()) {
      throw new TableException("CALL " + procedure + ": table " + table.basePath() + " has no completed savepoint");
    }
    if (instantTimes.isBlank()) {
      return List.of(savepoints.last().orElseThrow().time());
    }
    List<String> times = Arrays.stream(instantTimes.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    for (String time : times) {
      if (!savepoints.containsTime(time)) {
        throw new TableException("CALL " + procedure + ": savepoint " + time + " not found in the completed savepoints "
            + "of table " + table.basePath() + " " + savepoints.times());
      }
    }
    return times;
  }
}
