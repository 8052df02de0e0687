package hongbao.core.withdrawal;

import static hongbao.core.withdrawal.FakeGateway.OnQuery.ERROR;
import static hongbao.core.withdrawal.FakeGateway.OnTransfer.DROP;
import static hongbao.core.withdrawal.FakeGateway.OnTransfer.FAIL_FINAL;
import static hongbao.core.withdrawal.FakeGateway.OnTransfer.FAIL_RETRYABLE;
import static hongbao.core.withdrawal.FakeGateway.OnTransfer.HOLD;
import static hongbao.core.withdrawal.FakeGateway.OnTransfer.PAY_SILENTLY;
import static hongbao.core.withdrawal.FakeGateway.OnTransfer.PAY_THEN_ERROR;
import static hongbao.core.withdrawal.WithdrawalStatus.FAILED;
import static hongbao.core.withdrawal.WithdrawalStatus.REQUESTED;
import static hongbao.core.withdrawal.WithdrawalStatus.SENT;
import static hongbao.core.withdrawal.WithdrawalStatus.SUCCEEDED;
import static hongbao.core.withdrawal.WithdrawalStatus.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The state machine against a gateway that fails in each way a real one does: whatever it answers
 * and wherever we crash, a withdrawal is paid at most once, settled in the end, never re-sent
 * without asking first, and its money is either at the gateway or back in the wallet.
 */
class SettlementTest {

  private Withdrawals w;

  @BeforeEach
  void setUp() {
    w = new Withdrawals();
    w.store.fund("alice", 1_000);
  }

  private String no(long id) {
    return w.get(id).outTradeNo();
  }

  @Test
  void request_debitsIntoFlight_andTheSenderPaysIt() {
    long id = w.withdraw("alice", 400);
    assertThat(w.status(id)).isEqualTo(REQUESTED);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
    assertThat(w.store.inFlight.get(id)).isEqualTo(Amount.fen(400));

    w.runDispatched();

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.get(id).gatewayRef()).isEqualTo("G-" + no(id));
    assertThat(w.store.paid.get(id)).isEqualTo(Amount.fen(400));
    assertThat(w.store.inFlight.get(id)).isEqualTo(Amount.ZERO);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("T");
    assertThat(w.store.transitions(id))
        .extracting(Transition::to)
        .containsExactly(REQUESTED, SENT, SUCCEEDED);
  }

  @Test
  void systemError_isAskedAbout_beforeTheSameOutTradeNoIsSentAgain() {
    w.gateway.then(FakeGateway.OnTransfer.ERROR);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    assertThat(w.status(id)).isEqualTo(UNKNOWN);

    w.janitorRound();

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQT");
    assertThat(w.gateway.payments).isEqualTo(1);
  }

  @Test
  void payThenSystemError_isFoundPaid_andNeverPaidTwice() {
    w.gateway.then(PAY_THEN_ERROR);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    w.janitorRound();

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQ");
    assertThat(w.gateway.payments).isEqualTo(1);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
  }

  @Test
  void timeoutThatPaid_andTimeoutThatDidNot_eachEndPaidOnce() {
    w.gateway.then(PAY_SILENTLY, DROP);
    long paidSilently = w.withdraw("alice", 100);
    long dropped = w.withdraw("alice", 200);
    w.runDispatched();
    assertThat(w.status(paidSilently)).isEqualTo(UNKNOWN);
    assertThat(w.status(dropped)).isEqualTo(UNKNOWN);

    w.janitorRound();

    assertThat(w.gateway.callsOf(no(paidSilently))).isEqualTo("TQ");
    assertThat(w.gateway.callsOf(no(dropped))).isEqualTo("TQT");
    assertThat(w.status(paidSilently)).isEqualTo(SUCCEEDED);
    assertThat(w.status(dropped)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.payments).isEqualTo(2);
  }

  @Test
  void processing_isWaitedFor_withoutSendingAgain() {
    w.gateway.then(HOLD);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    w.janitorRound();
    w.janitorRound();
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQQ");

    w.gateway.finishProcessing(no(id), Amount.fen(400));
    w.janitorRound();

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQQQ");
  }

  @Test
  void failedQuery_learnsNothing_andIsAskedAgainLater() {
    w.gateway.then(DROP).thenQuery(ERROR, ERROR);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    w.janitorRound();
    w.janitorRound();
    assertThat(w.status(id)).isEqualTo(UNKNOWN);

    w.janitorRound();

    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQQQT");
    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
  }

  @Test
  void finalFail_returnsTheMoneyToTheWallet_once() {
    w.gateway.then(FAIL_FINAL);
    long id = w.withdraw("alice", 400);
    w.runDispatched();

    assertThat(w.status(id)).isEqualTo(FAILED);
    assertThat(w.get(id).cause()).contains("PAYEE_ACCOUNT_ABNORMAL");
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
    assertThat(w.store.returned.get(id)).isEqualTo(Amount.fen(400));

    w.settlement.notice(new GatewayNotice(no(id), new QueryAnswer.Fail("PAYEE_ACCOUNT_ABNORMAL")));
    assertThat(w.janitorRound()).isZero();
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
    assertThat(w.store.transitions(id)).hasSize(3);
  }

  @Test
  void retryableRefusals_areRetriedAfterAsking_thenGivenUpWithTheMoneyBack() {
    w.gateway.then(FAIL_RETRYABLE, FAIL_RETRYABLE, FAIL_RETRYABLE);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    assertThat(w.status(id)).isEqualTo(UNKNOWN);

    w.janitorRound();
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    w.janitorRound();

    assertThat(w.status(id)).isEqualTo(FAILED);
    assertThat(w.get(id).refusals()).isEqualTo(3);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQTQT");
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
    assertThat(w.gateway.payments).isZero();
  }

  @Test
  void crashAfterTheDebit_beforeSending_isSentByTheJanitorOnceTheGraceIsOver() {
    long id = w.withdraw("alice", 400);
    w.dispatched.clear(); // the process died with the send queued

    w.clock.advance(Duration.ofSeconds(5));
    assertThat(w.janitor().settleOnce()).isZero();
    w.clock.advance(Duration.ofSeconds(6));
    assertThat(w.janitor().settleOnce()).isEqualTo(1);

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("T");
  }

  @Test
  void crashAfterTheRequestLeft_beforeItsAnswer_isAskedAbout_andFoundPaid() {
    long id = w.withdraw("alice", 400);
    Settlement dying = w.settlementOn(new DiesAfterSending(w.gateway));
    assertThatThrownBy(() -> dying.send(id)).isInstanceOf(Killed.class);
    assertThat(w.status(id)).isEqualTo(SENT);
    assertThat(w.gateway.payments).isEqualTo(1);

    w.clock.advance(Duration.ofSeconds(29));
    assertThat(w.janitor().settleOnce()).as("the answer may still come").isZero();
    w.clock.advance(Duration.ofSeconds(2));
    assertThat(w.janitor().settleOnce()).isEqualTo(1);

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQ");
    assertThat(w.gateway.payments).isEqualTo(1);
  }

  @Test
  void crashAfterMarkingSent_beforeTheRequestLeft_isAskedAbout_andSent() {
    long id = w.withdraw("alice", 400);
    Settlement dying = w.settlementOn(new DiesBeforeSending(w.gateway));
    assertThatThrownBy(() -> dying.send(id)).isInstanceOf(Killed.class);

    w.janitorRound();

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("QT");
  }

  @Test
  void notices_settleOnce_duplicatesAndLateAnswersChangeNothing() {
    w.gateway.then(HOLD);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    w.gateway.finishProcessing(no(id), Amount.fen(400));
    var notice = new GatewayNotice(no(id), new QueryAnswer.Success("G-" + no(id), Amount.fen(400)));

    w.settlement.notice(notice);
    w.settlement.notice(notice);

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.store.transitions(id)).hasSize(4);
    assertThat(w.janitorRound()).isZero();
    assertThat(w.store.paid.get(id)).isEqualTo(Amount.fen(400));
  }

  @Test
  void aNoticeContradictingASettledWithdrawal_movesNoMoney() {
    w.gateway.then(FAIL_FINAL);
    long id = w.withdraw("alice", 400);
    w.runDispatched();

    w.settlement.notice(new GatewayNotice(no(id), new QueryAnswer.Success("G-x", Amount.fen(400))));

    assertThat(w.status(id)).isEqualTo(FAILED);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
    assertThat(w.store.paid).doesNotContainKey(id);
  }

  @Test
  void aStaleNotFound_doesNotSendAgain_onceAnotherRequestWasMade() {
    w.gateway.then(FakeGateway.OnTransfer.ERROR, FakeGateway.OnTransfer.ERROR);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    Withdrawal seenBeforeTheRace = w.get(id);
    // Another settler asked, heard NOT_FOUND, sent again and got SYSTEM_ERROR: UNKNOWN again.
    w.store.move(Move.resend(seenBeforeTheRace, w.clock.instant(), w.clock.instant()));
    w.store.move(Move.unknown(w.get(id), "SYSTEM_ERROR", w.clock.instant(), w.clock.instant()));

    assertThat(w.store.move(Move.resend(seenBeforeTheRace, w.clock.instant(), w.clock.instant())))
        .isEmpty();
    assertThat(w.get(id).attempts()).isEqualTo(2);
  }

  /**
   * A janitor whose lease lapsed mid-batch reaches a withdrawal with a stale copy: SENT, past its
   * answer deadline. Meanwhile another settler asked, heard NOT_FOUND and sent again. The stale
   * copy must not take that fresh request for unanswered (it did, then heard NOT_FOUND while the
   * request was still on its way, and sent a third).
   */
  @Test
  void aStaleSentCopy_doesNotTakeANewerRequestForUnanswered() {
    long id = w.withdraw("alice", 400);
    // Its first request on its way (the sender stalled), read so by a janitor.
    Instant sent = w.clock.instant();
    w.store.move(Move.firstSend(id, sent, sent.plus(Duration.ofSeconds(10))));
    Withdrawal stale = w.get(id);
    w.clock.advance(Duration.ofMinutes(5));
    // Another settler: no answer, asked, NOT_FOUND, and its new request is on its way.
    Instant now = w.clock.instant();
    w.store.move(Move.unknown(stale, "no answer", now, now));
    w.store.move(Move.resend(w.get(id), now, now.plus(Duration.ofMinutes(1))));
    assertThat(w.get(id).status()).isEqualTo(SENT);
    assertThat(w.get(id).attempts()).isEqualTo(2);
    String calls = w.gateway.callsOf(no(id));

    w.settlement.advance(stale);

    assertThat(w.gateway.callsOf(no(id))).as("nothing asked or sent").isEqualTo(calls);
    assertThat(w.get(id).attempts()).isEqualTo(2);
    assertThat(w.status(id)).isEqualTo(SENT);
  }

  @Test
  void theJanitorsBackoffGrows_andStaysBounded() {
    w.gateway.then(DROP).thenQuery(ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, ERROR, ERROR);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    Duration last = Duration.ZERO;
    for (int round = 0; round < 8; round++) {
      w.clock.advance(Duration.ofDays(1));
      assertThat(w.janitor().settleOnce()).isEqualTo(1);
      Duration wait = Duration.between(w.clock.instant(), w.store.nextCheckOf(id));
      assertThat(wait)
          .isGreaterThanOrEqualTo(Withdrawals.TIMINGS.lease())
          .isLessThanOrEqualTo(Withdrawals.TIMINGS.backoffMax());
      if (round < 5) {
        assertThat(wait).isGreaterThanOrEqualTo(last);
      }
      last = wait;
    }
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
  }

  @Test
  void aGatewayThatAlwaysErrs_isAskedLessAndLessOften_upToTheMaximum() {
    for (int i = 0; i < 12; i++) {
      w.gateway.then(FakeGateway.OnTransfer.ERROR);
    }
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    Duration longest = Duration.ZERO;
    for (int round = 0; round < 10; round++) {
      w.clock.advance(Duration.ofDays(1));
      assertThat(w.janitor().settleOnce()).isEqualTo(1);
      Duration wait = Duration.between(w.clock.instant(), w.store.nextCheckOf(id));
      assertThat(wait).isLessThanOrEqualTo(Withdrawals.TIMINGS.backoffMax());
      longest = wait.compareTo(longest) > 0 ? wait : longest;
    }
    assertThat(longest).isGreaterThanOrEqualTo(Withdrawals.TIMINGS.backoffMax().dividedBy(2));
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("T" + "QT".repeat(10));
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
  }

  /**
   * The last retryable refusal gives up (SENT -> FAILED, money back to the wallet) only on the
   * request it answers: read by a sender that stalled past the answer deadline, it must not give up
   * on a later request another settler made under the same out-trade-no after a NOT_FOUND, which
   * the gateway may pay. Otherwise the money would be both paid and back in the wallet.
   */
  @Test
  void aStaleLastRefusal_doesNotGiveUp_onALaterRequestTheGatewayPaid() {
    w.gateway.then(FAIL_RETRYABLE, FAIL_RETRYABLE);
    long id = w.withdraw("alice", 400);
    w.runDispatched(); // attempt 1 refused: UNKNOWN, 1 refusal
    w.janitorRound(); // NOT_FOUND, attempt 2 refused: UNKNOWN, 2 refusals
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    assertThat(w.get(id).refusals()).isEqualTo(2);

    // Attempt 3 is refused (it leaves nothing at the gateway), but its sender stalls past the
    // answer
    // deadline before it reads the answer. Meanwhile another janitor finds the withdrawal SENT and
    // unanswered, asks (NOT_FOUND, truly), sends attempt 4, which the gateway pays, and dies before
    // reading the answer.
    w.gateway.then(FAIL_RETRYABLE, FakeGateway.OnTransfer.PAY);
    Settlement other = w.settlementOn(new DiesAfterSending(w.gateway));
    WithdrawalJanitor otherJanitor =
        new WithdrawalJanitor(w.store, other, w.backoff, Withdrawals.TIMINGS, w.clock, 50);
    Gateway stalling =
        new AnswersLate(
            w.gateway,
            () -> {
              w.clock.advance(Withdrawals.TIMINGS.answerDeadline().plusSeconds(1));
              assertThatThrownBy(otherJanitor::settleOnce).isInstanceOf(Killed.class);
            });
    Settlement stalled = w.settlementOn(stalling);
    w.clock.advance(Withdrawals.TIMINGS.backoffMax());
    stalled.advance(w.get(id)); // asks: NOT_FOUND; sends attempt 3 (stalls; see above)

    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQTQTQT");
    assertThat(w.gateway.payments).as("attempt 4 was paid").isEqualTo(1);
    w.janitorRound();
    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.store.wallet("alice"))
        .as("paid at the gateway, so not back in the wallet too")
        .isEqualTo(Amount.fen(600));
  }

  /**
   * Retryable refusals give the money back only when they answered every request: a first request
   * left unanswered may reach the gateway late (held at its ingress while it was overloaded, the
   * same overload that refused the others), after our query's NOT_FOUND, and be paid then.
   */
  @Test
  void refusalsAfterAnUnansweredRequest_doNotGiveUp_forTheLateRequestMayStillBePaid() {
    w.gateway.then(DROP, FAIL_RETRYABLE, FAIL_RETRYABLE, FAIL_RETRYABLE);
    long id = w.withdraw("alice", 400);
    w.runDispatched(); // attempt 1: no answer, and the request lingers on its way
    for (int round = 0; round < 3; round++) {
      w.clock.advance(Withdrawals.TIMINGS.backoffMax());
      w.janitorRound(); // NOT_FOUND, then attempts 2 to 4 are refused
    }
    assertThat(w.get(id).refusals()).isEqualTo(3);
    assertThat(w.get(id).attempts()).isEqualTo(4);
    assertThat(w.status(id)).as("in doubt: attempt 1 was never answered").isEqualTo(UNKNOWN);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));

    // The lingering request arrives and is paid under the same out-trade-no.
    w.gateway.then(FakeGateway.OnTransfer.PAY);
    w.gateway.transfer(no(id), "alice", Amount.fen(400));
    w.clock.advance(Withdrawals.TIMINGS.backoffMax());
    w.janitorRound();

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.payments).isEqualTo(1);
    assertThat(w.store.wallet("alice"))
        .as("paid at the gateway, so not back in the wallet too")
        .isEqualTo(Amount.fen(600));
  }

  /**
   * A refusal read after its request was taken for unanswered (its sender stalled past the answer
   * deadline, a janitor moved the withdrawal on and sent the next request) still counts: counted
   * only when it found its request SENT, refusals stayed one behind attempts for good, and a
   * gateway that kept refusing was asked forever with the money in flight.
   */
  @Test
  void aRefusalReadAfterItsRequestWasTakenForUnanswered_stillCounts_andRefusalsEndInGivingUp() {
    w.gateway.then(FAIL_RETRYABLE, FAIL_RETRYABLE, FAIL_RETRYABLE);
    long id = w.withdraw("alice", 400);
    // Meanwhile: unanswered, NOT_FOUND, attempt 2 refused.
    Settlement stalled = w.settlementOn(new AnswersLate(w.gateway, w::janitorRound));

    stalled.send(id); // attempt 1, refused; the answer is read after the janitor's round
    assertThat(w.get(id).refusals()).isEqualTo(2);
    assertThat(w.get(id).attempts()).isEqualTo(2);
    w.janitorRound(); // NOT_FOUND, attempt 3 refused: the third refusal of three requests

    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQTQT");
    assertThat(w.status(id)).isEqualTo(FAILED);
    assertThat(w.gateway.payments).isZero();
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
  }

  /**
   * A refusal read late moves only its own request to UNKNOWN: a newer request another settler sent
   * meanwhile is on its way, and taking it for answered would ask about it too early and, hearing
   * NOT_FOUND before it arrived, send yet another.
   */
  @Test
  void aLateRefusal_leavesTheNewerRequest_sentUntilItsOwnDeadline() {
    w.gateway.then(FAIL_RETRYABLE, FakeGateway.OnTransfer.PAY);
    long id = w.withdraw("alice", 400);
    Settlement dies = w.settlementOn(new DiesBeforeSending(w.gateway));
    WithdrawalJanitor otherJanitor =
        new WithdrawalJanitor(w.store, dies, w.backoff, Withdrawals.TIMINGS, w.clock, 50);
    Settlement stalled =
        w.settlementOn(
            new AnswersLate(
                w.gateway,
                () -> {
                  w.clock.advance(Withdrawals.TIMINGS.answerDeadline().plusSeconds(1));
                  // unanswered, NOT_FOUND, attempt 2 recorded SENT and on its way
                  assertThatThrownBy(otherJanitor::settleOnce).isInstanceOf(Killed.class);
                }));

    stalled.send(id);

    assertThat(w.get(id).attempts()).isEqualTo(2);
    assertThat(w.get(id).refusals()).isEqualTo(1);
    assertThat(w.status(id)).as("attempt 2 is not the refusal's").isEqualTo(SENT);
    w.janitorRound(); // past attempt 2's deadline: asked, NOT_FOUND, attempt 3 paid
    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo("TQQT");
    assertThat(w.gateway.payments).isEqualTo(1);
  }

  /** A withdrawal in doubt for good: attempt 1 unanswered, attempts 2 to 4 refused. */
  private long stuck() {
    w.gateway.then(DROP, FAIL_RETRYABLE, FAIL_RETRYABLE, FAIL_RETRYABLE);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    for (int round = 0; round < 3; round++) {
      w.clock.advance(Withdrawals.TIMINGS.backoffMax());
      w.janitorRound();
    }
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    assertThat(w.get(id).refusals()).isEqualTo(3);
    assertThat(w.get(id).attempts()).isEqualTo(4);
    return id;
  }

  @Test
  void anOperatorsClose_ofAWithdrawalTheGatewayHoldsNothingOf_returnsTheMoney_once() {
    long id = stuck();
    String before = w.gateway.callsOf(no(id));
    // Attempt 1 went unanswered 15 minutes ago: it may still reach the gateway.
    assertThatThrownBy(() -> w.settlement.closeUnpaid(id, "the gateway holds no request"))
        .isInstanceOfSatisfying(
            RejectedException.class, e -> assertThat(e.rejection()).isEqualTo(Rejection.CONFLICT))
        .hasMessageContaining("went unanswered less than 1 h ago");
    assertThat(w.gateway.callsOf(no(id))).as("not even asked").isEqualTo(before);
    w.clock.advance(Settlement.OPERATOR_CLOSE_AFTER);

    Withdrawal closed = w.settlement.closeUnpaid(id, "the gateway holds no request").orElseThrow();

    assertThat(closed.status()).isEqualTo(FAILED);
    assertThat(closed.cause())
        .isEqualTo("query: NOT_FOUND; closed by an operator: the gateway holds no request");
    assertThat(w.gateway.callsOf(no(id)))
        .as("asked once more, sent nothing")
        .isEqualTo(before + "Q");
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
    assertThat(w.store.inFlight.get(id)).isEqualTo(Amount.ZERO);
    assertThat(w.gateway.payments).isZero();

    // Again: answered as it is, without asking the gateway or moving money.
    assertThat(w.settlement.closeUnpaid(id, "again").orElseThrow()).isEqualTo(closed);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo(before + "Q");
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(1_000));
    w.clock.advance(Withdrawals.TIMINGS.backoffMax());
    assertThat(w.janitorRound()).as("nothing left to check").isZero();
  }

  @Test
  void anOperatorsClose_ofAWithdrawalTheGatewayPaidAfterAll_settlesItPaid_andIsRefused() {
    long id = stuck();
    w.clock.advance(Settlement.OPERATOR_CLOSE_AFTER);
    w.gateway.then(FakeGateway.OnTransfer.PAY);
    w.gateway.transfer(no(id), "alice", Amount.fen(400)); // the lingering request arrives

    assertThatThrownBy(() -> w.settlement.closeUnpaid(id, "looks stuck"))
        .isInstanceOfSatisfying(
            RejectedException.class, e -> assertThat(e.rejection()).isEqualTo(Rejection.CONFLICT))
        .hasMessageContaining("the gateway paid this withdrawal");

    assertThat(w.status(id)).isEqualTo(SUCCEEDED);
    assertThat(w.store.paid.get(id)).isEqualTo(Amount.fen(400));
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
  }

  @Test
  void anOperatorsClose_whileARequestIsOnItsWay_isRefused_withoutAskingTheGateway() {
    w.gateway.then(HOLD);
    long id = w.withdraw("alice", 400);
    w.runDispatched(); // held: no answer, so in doubt
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    w.store.move(Move.resend(w.get(id), w.clock.instant(), w.clock.instant().plusSeconds(5)));
    assertThat(w.status(id)).isEqualTo(SENT);
    String before = w.gateway.callsOf(no(id));

    assertThatThrownBy(() -> w.settlement.closeUnpaid(id, "looks stuck"))
        .isInstanceOf(RejectedException.class)
        .hasMessageContaining("on its way");

    assertThat(w.status(id)).isEqualTo(SENT);
    assertThat(w.gateway.callsOf(no(id))).isEqualTo(before);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
  }

  @Test
  void anOperatorsClose_whileTheGatewayIsProcessing_orSilent_movesNothing() {
    w.gateway.then(HOLD);
    long id = w.withdraw("alice", 400);
    w.runDispatched();
    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    w.clock.advance(Settlement.OPERATOR_CLOSE_AFTER);

    assertThatThrownBy(() -> w.settlement.closeUnpaid(id, "looks stuck"))
        .isInstanceOf(RejectedException.class)
        .hasMessageContaining("still processing");
    w.gateway.thenQuery(ERROR);
    assertThatThrownBy(() -> w.settlement.closeUnpaid(id, "looks stuck"))
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("no answer to the query");

    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
    assertThat(w.store.inFlight.get(id)).isEqualTo(Amount.fen(400));
  }

  /**
   * The janitor hears NOT_FOUND too, while the operator's query is on its way, and sends another
   * request: the operator's word was about the withdrawal as it was. The new request is refused,
   * which leaves the withdrawal in doubt as before, but with one request more: the close still
   * moves nothing (the compare-and-set on the requests made, not only on the status).
   */
  @Test
  void anOperatorsClose_racingTheJanitorsNextRequest_movesNothing() {
    long id = stuck();
    w.clock.advance(Settlement.OPERATOR_CLOSE_AFTER);
    w.gateway.then(FAIL_RETRYABLE);
    Runnable janitor =
        () -> {
          w.clock.advance(Withdrawals.TIMINGS.backoffMax());
          w.janitorRound();
        };
    Settlement operator = w.settlementOn(new QueriedLate(w.gateway, janitor));

    assertThatThrownBy(() -> operator.closeUnpaid(id, "looks stuck"))
        .isInstanceOf(RejectedException.class)
        .hasMessageContaining("moved on while the gateway was asked");

    assertThat(w.status(id)).isEqualTo(UNKNOWN);
    assertThat(w.get(id).attempts()).isEqualTo(5);
    assertThat(w.store.inFlight.get(id)).isEqualTo(Amount.fen(400));
    assertThat(w.store.wallet("alice")).isEqualTo(Amount.fen(600));
  }

  /** Answers a query only after {@code meanwhile} ran. */
  record QueriedLate(Gateway gateway, Runnable meanwhile) implements Gateway {
    @Override
    public TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
      return gateway.transfer(outTradeNo, userId, amount);
    }

    @Override
    public QueryAnswer query(String outTradeNo) {
      QueryAnswer answer = gateway.query(outTradeNo);
      meanwhile.run();
      return answer;
    }
  }

  /** Answers as the gateway does, but only after {@code meanwhile} ran: a sender that stalled. */
  record AnswersLate(Gateway gateway, Runnable meanwhile) implements Gateway {
    @Override
    public TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
      TransferAnswer answer = gateway.transfer(outTradeNo, userId, amount);
      meanwhile.run();
      return answer;
    }

    @Override
    public QueryAnswer query(String outTradeNo) {
      return gateway.query(outTradeNo);
    }
  }

  /** Stands for the process dying at a crash point. An Error: nothing may catch it and go on. */
  static final class Killed extends Error {
    private static final long serialVersionUID = 1L;
  }

  /** The request reaches the gateway (which may pay it); the process dies before the answer. */
  record DiesAfterSending(Gateway gateway) implements Gateway {
    @Override
    public TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
      gateway.transfer(outTradeNo, userId, amount);
      throw new Killed();
    }

    @Override
    public QueryAnswer query(String outTradeNo) {
      return gateway.query(outTradeNo);
    }
  }

  /** The process dies after SENT was written, before a byte of the request left. */
  record DiesBeforeSending(Gateway gateway) implements Gateway {
    @Override
    public TransferAnswer transfer(String outTradeNo, String userId, Amount amount) {
      throw new Killed();
    }

    @Override
    public QueryAnswer query(String outTradeNo) {
      return gateway.query(outTradeNo);
    }
  }
}
