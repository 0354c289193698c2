package io.riverbed.spark.sql.procedures;

import java.util.Optional;

/**
 * One argument of a parsed {@code CALL}: {@code name => value} or a positional value.
 *
 * @param value the literal's value (a Java String, Boolean, Integer, Long, ... or null)
 */
record CallArgument(Optional<String> name, Object value) {}
