package io.riverbed.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SqlStatementsTest {
  @Test
  void splitsAtSemicolonsOutsideQuotesAndComments() {
    var statements = SqlStatements.split("""
        -- a comment; not a statement
        CREATE TABLE t (a STRING) WITH ('connector' = 'hudi', 'path' = 'x;y');

        /* block; comment */ INSERT INTO t
          SELECT 'it''s;' AS a;
        SET 'k' = 'v'
        """);
    assertThat(statements).extracting(SqlStatements.Statement::line).containsExactly(2, 4, 6);
    assertThat(statements.get(0).sql()).isEqualTo("CREATE TABLE t (a STRING) WITH ('connector' = 'hudi', 'path' = 'x;y')");
    assertThat(statements.get(1).sql()).isEqualTo("INSERT INTO t\n  SELECT 'it''s;' AS a");
    assertThat(statements.get(2).sql()).isEqualTo("SET 'k' = 'v'");
  }

  @Test
  void keepsHintsInTheirStatement() {
    var statements = SqlStatements.split("SELECT * FROM t /*+ OPTIONS('read.streaming.enabled' = 'true') */;\nSELECT 1");
    assertThat(statements).extracting(SqlStatements.Statement::sql)
        .containsExactly("SELECT * FROM t /*+ OPTIONS('read.streaming.enabled' = 'true') */", "SELECT 1");
  }

  @Test
  void anUnterminatedQuoteNamesItsLine() {
    assertThatThrownBy(() -> SqlStatements.split("SELECT 1;\nSELECT 'x;\n"))
        .hasMessage("unterminated ' quote starting on line 2");
  }
}
