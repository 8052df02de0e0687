package hongbao.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every wait on the database is bounded: a slow statement is cancelled by the server, a reply that
 * never comes closes the connection, and a turn at an exhausted pool ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresTimeoutsTest {

  private static final PostgresConfig.Timeouts SHORT =
      new PostgresConfig.Timeouts(
          Duration.ofMillis(600), Duration.ofSeconds(1), Duration.ofMillis(300));

  private TestSchema db;

  @BeforeAll
  void open() {
    String schema = "hb_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    PostgresDatabase database =
        PostgresDatabase.open(
            PostgresConfig.of(TestDatabase.serverUrl())
                .withSchema(schema)
                .withPoolSize(2)
                .withTimeouts(SHORT));
    db = new TestSchema(database, schema);
  }

  @AfterAll
  void close() {
    db.close();
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  @Test
  void slowStatement_isCancelledByTheServer_atTheStatementTimeout_evenAfterARollback()
      throws SQLException {
    try (Connection connection = db.database.dataSource().getConnection()) {
      connection.rollback();
      try (Statement statement = connection.createStatement()) {
        var show = statement.executeQuery("SHOW statement_timeout");
        show.next();
        assertThat(show.getString(1)).isEqualTo("300ms");
        long started = System.nanoTime();
        assertThatThrownBy(() -> statement.execute("SELECT pg_sleep(5)"))
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
        assertThat(millisSince(started)).isBetween(250L, 2_000L);
      }
      connection.rollback();
    }
  }

  @Test
  void replyThatNeverComes_closesTheConnection_atTheSocketTimeout() throws SQLException {
    try (Connection connection = db.database.dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      // Lifting the server's limit leaves the driver's: the stand-in for a server that went silent.
      statement.execute("SET LOCAL statement_timeout = 0");
      long started = System.nanoTime();
      assertThatThrownBy(() -> statement.execute("SELECT pg_sleep(5)"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(e.getCause()).hasMessageContaining("timed out"));
      assertThat(millisSince(started)).isBetween(900L, 3_000L);
      assertThat(connection.isClosed()).isTrue();
    }
    try (Connection replaced = db.database.dataSource().getConnection()) {
      assertThat(replaced.isValid(1)).isTrue();
      replaced.rollback();
    }
  }

  @Test
  void turnAtAnExhaustedPool_endsAtTheConnectTimeout() throws SQLException {
    try (Connection one = db.database.dataSource().getConnection();
        Connection two = db.database.dataSource().getConnection()) {
      long started = System.nanoTime();
      assertThatThrownBy(() -> db.database.dataSource().getConnection())
          .isInstanceOf(SQLTransientConnectionException.class);
      assertThat(millisSince(started)).isBetween(500L, 2_500L);
      one.rollback();
      two.rollback();
    }
  }

  @Test
  void timeouts_thatCannotWork_areRefusedAtStart() {
    assertThatThrownBy(
            () ->
                new PostgresConfig.Timeouts(
                    Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(10)))
        .hasMessageContaining("must exceed the statement timeout");
    assertThatThrownBy(
            () ->
                new PostgresConfig.Timeouts(
                    Duration.ofMillis(100), Duration.ofSeconds(10), Duration.ofSeconds(5)))
        .hasMessageContaining("connect timeout");
    assertThat(PostgresConfig.Timeouts.wholeSeconds(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(PostgresConfig.Timeouts.wholeSeconds(Duration.ofMillis(20_000))).isEqualTo(20);
    assertThat(PostgresConfig.Timeouts.wholeSeconds(Duration.ofMillis(20_001))).isEqualTo(21);
  }
}
