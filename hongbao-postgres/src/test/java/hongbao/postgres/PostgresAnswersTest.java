package hongbao.postgres;

import static hongbao.postgres.TestSchema.answer;
import static hongbao.postgres.TestSchema.key;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.ledger.AnswerRetention;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.send.SendService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stored answers are forgotten after their retention, a bounded batch at a time, oldest first. */
class PostgresAnswersTest extends LedgerTestBase {

  @Test
  void purge_deletesOnlyAnswersPastTheirRetention_atMostABatchPerCall() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    var old = new ArrayList<IdempotencyKey>();
    for (int i = 0; i < 5; i++) {
      IdempotencyKey key = key(alice, SendService.ENDPOINT, "old-" + i);
      db.ledger.send(
          db.packet(alice, 10, 1, TestSchema.T0, Duration.ofDays(1)), key, answer(key, "{}"));
      old.add(key);
    }
    db.execute("UPDATE idempotency SET created_at = now() - interval '3 days'");
    IdempotencyKey fresh = key(alice, SendService.ENDPOINT, "fresh");
    db.ledger.send(
        db.packet(alice, 10, 1, TestSchema.T0, Duration.ofDays(1)), fresh, answer(fresh, "{}"));
    // The database stamps the rows with its own clock; the retention reads the service's.
    var retention =
        new AnswerRetention(
            db.database.answers(),
            Clock.fixed(Instant.now().plusSeconds(60), ZoneOffset.UTC),
            AnswerRetention.DEFAULT,
            3);

    // Six aged out: the five sends' answers and the top-up's.
    assertThat(retention.purgeOnce()).isEqualTo(3);
    assertThat(retention.purgeOnce()).isEqualTo(3);
    assertThat(retention.purgeOnce()).isZero();

    for (IdempotencyKey key : old) {
      assertThat(db.ledger.answerFor(key)).isEmpty();
    }
    assertThat(db.ledger.answerFor(fresh)).isPresent();
    assertThat(List.of(db.balance(alice).fen())).containsExactly(940L);
  }
}
