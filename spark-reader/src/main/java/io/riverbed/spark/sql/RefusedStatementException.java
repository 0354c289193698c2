package io.riverbed.spark.sql;

import io.riverbed.format.TableException;

/** A Spark SQL statement on a Hudi table that Riverbed refuses, as Apache Hudi 0.15 does or for a reason it names. */
public class RefusedStatementException extends TableException {
  public RefusedStatementException(String message) {
    super(message);
  }
}
