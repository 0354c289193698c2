/**
 * Changing a table's version between 6 (Hudi 0.14/0.15) and 8 (Hudi 1.x) as Hudi's upgrade and
 * downgrade handlers do: {@link io.riverbed.format.upgrade.TableVersionChange}.
 */
package io.riverbed.format.upgrade;
