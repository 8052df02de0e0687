package hongbao.postgres;

import static hongbao.postgres.Migrations.execute;
import static hongbao.postgres.Migrations.flyway;
import static hongbao.postgres.Migrations.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Answers kept before V10 stored the HTTP status itself; after it, a kind only the HTTP layer maps
 * to a status. A retry of a request answered before the upgrade must still get its answer.
 */
class AnswerKindMigrationTest {

  @Test
  void answersKeptBeforeV10_replayWithTheKindOfTheirStatus_andTheSameBody() throws SQLException {
    String schema = schema();
    flyway(schema, "9").migrate();
    execute(
        schema,
        """
        INSERT INTO idempotency (user_id, endpoint, key, request_hash, status, body) VALUES
            ('alice', 'topUp', 'k1', 'h1', 200, '{"userId":"alice","balance":700}'),
            ('alice', 'send', 'k2', 'h2', 201, '{"id":"x9Kq"}'),
            ('alice', 'withdraw', 'k3', 'h3', 202, '{"id":7,"status":"PROCESSING"}')
        """);

    try (var db =
        new TestSchema(
            PostgresDatabase.open(
                PostgresConfig.of(TestDatabase.serverUrl()).withSchema(schema).withPoolSize(2)),
            schema)) {
      assertThat(db.ledger.answerFor(new IdempotencyKey("alice", "topUp", "k1", "h1")))
          .contains(new StoredAnswer("h1", "DONE", "{\"userId\":\"alice\",\"balance\":700}"));
      assertThat(db.ledger.answerFor(new IdempotencyKey("alice", "send", "k2", "h2")))
          .contains(new StoredAnswer("h2", "CREATED", "{\"id\":\"x9Kq\"}"));
      assertThat(db.ledger.answerFor(new IdempotencyKey("alice", "withdraw", "k3", "h3")))
          .contains(new StoredAnswer("h3", "ACCEPTED", "{\"id\":7,\"status\":\"PROCESSING\"}"));
    }
  }

  @Test
  void anAnswerWithAStatusNoKindStandsFor_stopsTheMigration() throws SQLException {
    String schema = schema();
    flyway(schema, "9").migrate();
    execute(
        schema,
        "INSERT INTO idempotency (user_id, endpoint, key, request_hash, status, body)"
            + " VALUES ('bob', 'send', 'k', 'h', 418, '{}')");
    assertThatThrownBy(() -> flyway(schema, "latest").migrate()).hasMessageContaining("kind");
    execute(schema, "DROP SCHEMA " + schema + " CASCADE");
  }
}
