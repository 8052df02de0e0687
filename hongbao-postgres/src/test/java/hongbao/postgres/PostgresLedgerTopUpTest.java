package hongbao.postgres;

import static hongbao.postgres.TestSchema.key;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.TopUpService;
import hongbao.core.money.Amount;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class PostgresLedgerTopUpTest extends LedgerTestBase {

  private static Function<Amount, StoredAnswer> render(IdempotencyKey key) {
    return balance ->
        new StoredAnswer(key.requestHash(), "DONE", "{\"balance\":" + balance.fen() + "}");
  }

  @Test
  void topUp_creditsWalletAndRendersAnswerFromNewBalance() {
    String bob = user("bob");
    IdempotencyKey first = key("admin", TopUpService.ENDPOINT, user("k"));
    IdempotencyKey second = key("admin", TopUpService.ENDPOINT, user("k"));

    db.ledger.topUp(bob, Amount.fen(500), first, render(first));
    StoredAnswer answer = db.ledger.topUp(bob, Amount.fen(700), second, render(second));

    assertThat(answer.payload()).isEqualTo("{\"balance\":1200}");
    assertThat(db.ledger.answerFor(second)).contains(answer);
    assertThat(db.ledger.wallet(bob, 10).entries())
        .extracting(e -> e.kind(), e -> e.amount().fen(), e -> e.packetId())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(EntryKind.TOPUP, 700L, null),
            org.assertj.core.groups.Tuple.tuple(EntryKind.TOPUP, 500L, null));
  }

  @Test
  void topUp_withStoredKey_raisesRaceAndMovesNothing() {
    String bob = user("bob");
    IdempotencyKey key = key("admin", TopUpService.ENDPOINT, user("k"));
    db.ledger.topUp(bob, Amount.fen(500), key, render(key));

    assertThatThrownBy(() -> db.ledger.topUp(bob, Amount.fen(500), key, render(key)))
        .isInstanceOf(IdempotencyRaceException.class);
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(500));
  }

  /** Its answer purged, a key still names the top-up it made: 409, nothing moved, not a 500. */
  @Test
  void topUp_withAKeyWhoseAnswerWasPurged_isAConflict_andMovesNothing() {
    String bob = user("bob");
    IdempotencyKey key = key("admin", TopUpService.ENDPOINT, user("k"));
    db.ledger.topUp(bob, Amount.fen(500), key, render(key));
    db.database.answers().deleteStoredBefore(java.time.Instant.now().plusSeconds(60), 1_000);
    assertThat(db.ledger.answerFor(key)).isEmpty();

    assertThatThrownBy(() -> db.ledger.topUp(bob, Amount.fen(500), key, render(key)))
        .isInstanceOfSatisfying(
            RejectedException.class,
            e -> assertThat(e.rejection()).isEqualTo(Rejection.IDEMPOTENCY_CONFLICT));
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(500));
    assertThat(db.ledger.answerFor(key)).as("nothing claimed either").isEmpty();
  }

  @Test
  void topUp_replayedThroughService_returnsFirstAnswerAndCreditsOnce() throws InterruptedException {
    String bob = user("bob");
    IdempotencyKey key = key("admin", TopUpService.ENDPOINT, user("k"));
    TopUpService service = new TopUpService(db.ledger);

    List<Race.Result<StoredAnswer>> results =
        Race.run(6, () -> service.topUp(bob, 800, key, render(key)));

    assertThat(results)
        .allSatisfy(
            r -> {
              assertThat(r.failure()).isNull();
              assertThat(r.value().payload()).isEqualTo("{\"balance\":800}");
            });
    assertThat(service.topUp(bob, 800, key, render(key)).payload()).isEqualTo("{\"balance\":800}");
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(800));
  }

  @Test
  void topUp_sameKeyFromTwoOperators_creditsTwice() {
    String bob = user("bob");
    IdempotencyKey fromAnn = key("ann", TopUpService.ENDPOINT, "same");
    IdempotencyKey fromDan = key("dan", TopUpService.ENDPOINT, "same");

    db.ledger.topUp(bob, Amount.fen(100), fromAnn, render(fromAnn));
    db.ledger.topUp(bob, Amount.fen(100), fromDan, render(fromDan));

    assertThat(db.balance(bob)).isEqualTo(Amount.fen(200));
  }

  @Test
  void answerFor_isScopedByUserAndEndpoint() {
    String bob = user("bob");
    IdempotencyKey key = key("admin-" + bob, TopUpService.ENDPOINT, "scoped");
    db.ledger.topUp(bob, Amount.fen(100), key, render(key));

    assertThat(db.ledger.answerFor(key)).isPresent();
    assertThat(db.ledger.answerFor(key("someone-else", TopUpService.ENDPOINT, "scoped"))).isEmpty();
    assertThat(db.ledger.answerFor(key("admin-" + bob, "send", "scoped"))).isEmpty();
  }
}
