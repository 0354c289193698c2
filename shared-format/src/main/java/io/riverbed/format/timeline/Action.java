package io.riverbed.format.timeline;

import java.util.Arrays;
import java.util.Optional;

/** Timeline actions of table version 6, with the file-name word Hudi uses for each. */
public enum Action {
  COMMIT("commit"),
  DELTA_COMMIT("deltacommit"),
  REPLACE_COMMIT("replacecommit"),
  COMPACTION("compaction"),
  LOG_COMPACTION("logcompaction"),
  CLEAN("clean"),
  ROLLBACK("rollback"),
  SAVEPOINT("savepoint"),
  RESTORE("restore"),
  INDEXING("indexing"),
  SCHEMA_COMMIT("schemacommit");

  private final String word;

  Action(String word) {
    this.word = word;
  }

  /** The word in timeline file names, e.g. {@code deltacommit}. */
  public String word() {
    return word;
  }

  /** The action a completed instant of this action is filed under: compaction completes as commit. */
  public Action completedAs() {
    return switch (this) {
      case COMPACTION -> COMMIT;
      case LOG_COMPACTION -> DELTA_COMMIT;
      default -> this;
    };
  }

  /** True for actions that write data files: commit, deltacommit, replacecommit, (log)compaction. */
  public boolean writesData() {
    return switch (this) {
      case COMMIT, DELTA_COMMIT, REPLACE_COMMIT, COMPACTION, LOG_COMPACTION -> true;
      default -> false;
    };
  }

  public static Optional<Action> fromWord(String word) {
    return Arrays.stream(values()).filter(a -> a.word.equals(word)).findFirst();
  }
}
