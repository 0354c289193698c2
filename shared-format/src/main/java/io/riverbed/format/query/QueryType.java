package io.riverbed.format.query;

import io.riverbed.format.TableException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The query kinds of {@code hoodie.datasource.query.type}. */
public enum QueryType {
  SNAPSHOT("snapshot"),
  READ_OPTIMIZED("read_optimized"),
  INCREMENTAL("incremental");

  private final String optionValue;

  QueryType(String optionValue) {
    this.optionValue = optionValue;
  }

  public String optionValue() {
    return optionValue;
  }

  /** Parses an option value; an unknown one is an error that lists the accepted values. */
  public static QueryType fromOption(String value) {
    return Arrays.stream(values())
        .filter(t -> t.optionValue.equalsIgnoreCase(value.trim()))
        .findFirst()
        .orElseThrow(() -> new TableException("hoodie.datasource.query.type='" + value + "' is not one of "
            + Arrays.stream(values()).map(QueryType::optionValue).collect(Collectors.joining(", "))));
  }
}
