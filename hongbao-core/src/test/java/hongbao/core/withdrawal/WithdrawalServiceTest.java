package hongbao.core.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Taking a withdrawal request: the contract's order of checks and its money rules. */
class WithdrawalServiceTest {

  private Withdrawals w;

  @BeforeEach
  void setUp() {
    w = new Withdrawals();
    w.store.fund("alice", 1_000);
  }

  private static RejectedException rejection(Runnable request) {
    try {
      request.run();
    } catch (RejectedException e) {
      return e;
    }
    throw new AssertionError("not rejected");
  }

  /**
   * A database restored from a backup hands out its withdrawal ids again, while the gateway keeps
   * what it settled: the new withdrawal must be paid, not taken for the old one's payment.
   */
  @Test
  void anIdHandedOutAgain_afterARestoredBackup_isANewTradeAtTheGateway_andIsPaid() {
    long first = w.withdraw("alice", 300);
    w.runDispatched();
    assertThat(w.status(first)).isEqualTo(WithdrawalStatus.SUCCEEDED);

    var restored = new Withdrawals(w.gateway);
    restored.nonces.set(1_000);
    restored.store.fund("alice", 1_000);
    long again = restored.withdraw("alice", 200);
    restored.runDispatched();

    assertThat(again).as("the same id, handed out again").isEqualTo(first);
    assertThat(restored.get(again).outTradeNo()).isNotEqualTo(w.get(first).outTradeNo());
    assertThat(restored.status(again)).isEqualTo(WithdrawalStatus.SUCCEEDED);
    assertThat(w.gateway.payments).as("both paid").isEqualTo(2);
    assertThat(w.gateway.paid.get(restored.get(again).outTradeNo())).isEqualTo(Amount.fen(200));
  }

  @Test
  void insufficientFunds_isRefused_andNothingMoves() {
    var refused = rejection(() -> w.withdraw("alice", 1_001));
    assertThat(refused.rejection()).isEqualTo(Rejection.INSUFFICIENT_FUNDS);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
    assertThat(w.store.page("alice", null, 10)).isEmpty();
    assertThat(w.dispatched).isEmpty();
  }

  @Test
  void amountsOutsideTheLimits_andTooManyTokens_areInvalid() {
    assertThat(rejection(() -> w.withdraw("alice", 0)).rejection())
        .isEqualTo(Rejection.INVALID_AMOUNT);
    assertThat(
            rejection(() -> w.withdraw("alice", WithdrawalRequest.AMOUNT_MAX_FEN + 1)).rejection())
        .isEqualTo(Rejection.INVALID_AMOUNT);
    var tokens = Collections.nCopies(WithdrawalRequest.TOKENS_MAX + 1, "t");
    IdempotencyKey key = Withdrawals.key("alice", "k", "tokens");
    assertThat(
            rejection(
                    () ->
                        w.service()
                            .request(
                                new WithdrawalRequest("alice", 10, tokens),
                                key,
                                x -> new StoredAnswer(key.requestHash(), "ACCEPTED", "")))
                .rejection())
        .isEqualTo(Rejection.INVALID_REQUEST);
  }

  @Test
  void aRetryWithTheSameKey_replaysTheFirstAnswer_andDebitsOnce() {
    IdempotencyKey key = Withdrawals.key("alice", "first", "400");
    StoredAnswer first = w.request("alice", 400, key);
    StoredAnswer again = w.request("alice", 400, key);

    assertThat(again).isEqualTo(first);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
    assertThat(w.dispatched).hasSize(1);
    var conflict =
        rejection(() -> w.request("alice", 300, Withdrawals.key("alice", "first", "300")));
    assertThat(conflict.rejection()).isEqualTo(Rejection.IDEMPOTENCY_CONFLICT);
  }

  @Test
  void switchedOff_newRequestsAreRefused_butAReplayStillAnswers() {
    IdempotencyKey key = Withdrawals.key("alice", "first", "400");
    StoredAnswer first = w.request("alice", 400, key);
    w.switches.set(Switch.WITHDRAWALS, false);

    assertThat(w.request("alice", 400, key)).isEqualTo(first);
    assertThat(rejection(() -> w.withdraw("alice", 100)).rejection()).isEqualTo(Rejection.DISABLED);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
  }

  @Test
  void forcedCredit_runsBeforeTheDebit_withTheCallersTokens() {
    List<String> seen = new ArrayList<>();
    w.forcedCredit =
        (user, tokens) -> {
          seen.addAll(tokens);
          w.store.fund(user, 500);
        };
    IdempotencyKey key = Withdrawals.key("alice", "k", "tokens");
    w.service()
        .request(
            new WithdrawalRequest("alice", 1_400, List.of("token-a", "token-b")),
            key,
            x -> new StoredAnswer(key.requestHash(), "ACCEPTED", ""));

    assertThat(seen).containsExactly("token-a", "token-b");
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(100));
  }

  /**
   * A key whose withdrawal was made, its answer purged since: 409 before anything runs, forced
   * credit included (it credited the caller's tokens, then the request was refused), and before the
   * switch, as the contract orders.
   */
  @Test
  void aKeyWhoseAnswerWasPurged_is409_beforeForcedCreditAndTheSwitch() {
    IdempotencyKey key = Withdrawals.key("alice", "old", "400");
    w.request("alice", 400, key);
    w.store.purgeAnswers();
    List<String> credited = new ArrayList<>();
    w.forcedCredit = (user, tokens) -> credited.addAll(tokens);
    w.switches.set(Switch.WITHDRAWALS, false);

    var refused =
        rejection(
            () ->
                w.service()
                    .request(
                        new WithdrawalRequest("alice", 400, List.of("token-a")),
                        key,
                        x -> new StoredAnswer(key.requestHash(), "ACCEPTED", "")));

    assertThat(refused.rejection()).isEqualTo(Rejection.IDEMPOTENCY_CONFLICT);
    assertThat(credited).isEmpty();
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
  }

  @Test
  void senderQueueFull_leavesTheWithdrawalToTheJanitor() {
    IdempotencyKey key = Withdrawals.key("alice", "k", "full");
    StoredAnswer answer =
        w.service(
                task -> {
                  throw new RejectedExecutionException("full");
                })
            .request(
                new WithdrawalRequest("alice", 400, null),
                key,
                x -> new StoredAnswer(key.requestHash(), "ACCEPTED", Long.toString(x.id())));
    long id = Long.parseLong(answer.payload());
    assertThat(w.status(id)).isEqualTo(WithdrawalStatus.REQUESTED);

    w.janitorRound();

    assertThat(w.status(id)).isEqualTo(WithdrawalStatus.SUCCEEDED);
  }

  @Test
  void pages_newestFirst_withACursor() {
    long a = w.withdraw("alice", 1);
    long b = w.withdraw("alice", 2);
    long c = w.withdraw("alice", 3);

    var first = w.service().page("alice", null, 2);
    assertThat(first.items()).extracting(Withdrawal::id).containsExactly(c, b);
    var second = w.service().page("alice", first.nextCursor(), 2);
    assertThat(second.items()).extracting(Withdrawal::id).containsExactly(a);
    assertThat(second.nextCursor()).isNull();
    assertThatThrownBy(() -> w.service().page("alice", null, 101))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
