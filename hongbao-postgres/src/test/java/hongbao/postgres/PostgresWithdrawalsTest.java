package hongbao.postgres;

import static hongbao.core.withdrawal.WithdrawalStatus.FAILED;
import static hongbao.core.withdrawal.WithdrawalStatus.REQUESTED;
import static hongbao.core.withdrawal.WithdrawalStatus.SENT;
import static hongbao.core.withdrawal.WithdrawalStatus.SUCCEEDED;
import static hongbao.core.withdrawal.WithdrawalStatus.UNKNOWN;
import static hongbao.postgres.TestSchema.T0;
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
import hongbao.core.money.Amount;
import hongbao.core.withdrawal.Move;
import hongbao.core.withdrawal.Transition;
import hongbao.core.withdrawal.Withdrawal;
import hongbao.core.withdrawal.WithdrawalBooks.Booked;
import hongbao.core.withdrawal.WithdrawalService;
import hongbao.core.withdrawal.WithdrawalStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Withdrawals on a real PostgreSQL: the request's one transaction, moves as compare-and-set with
 * their money and transition rows, leases for concurrent janitors, and the books reconciliation
 * reads. The ledger must balance after every test.
 */
class PostgresWithdrawalsTest extends LedgerTestBase {

  private static PostgresWithdrawals withdrawals;

  @BeforeAll
  static void adapter() {
    withdrawals = db.database.withdrawals();
  }

  private static IdempotencyKey newKey(String userId) {
    return key(userId, WithdrawalService.ENDPOINT, user("k"));
  }

  private static Withdrawal request(String userId, long fen) {
    Withdrawal w = Withdrawal.requested(withdrawals.nextId(), 0, userId, Amount.fen(fen), T0);
    IdempotencyKey key = newKey(userId);
    withdrawals.request(
        w, T0.plusSeconds(10), key, new StoredAnswer(key.requestHash(), "ACCEPTED", "{}"));
    return w;
  }

  private static Move move(long id, Set<WithdrawalStatus> from, WithdrawalStatus to) {
    return new Move(
        id,
        from,
        to,
        "test: " + to,
        T0.plusSeconds(1),
        to.settled() ? null : T0.plusSeconds(30),
        to == SUCCEEDED ? "G-" + id : null,
        to == SENT,
        Move.ANY_ATTEMPTS);
  }

  private static Withdrawal sent(String userId, long fen) {
    Withdrawal w = request(userId, fen);
    return withdrawals.move(move(w.id(), Set.of(REQUESTED), SENT)).orElseThrow();
  }

  private static Booked booked(Withdrawal w) {
    return withdrawals.byOutTradeNo(w.outTradeNo()).orElseThrow();
  }

  @Test
  void request_debitsTheWalletIntoFlight_inOneTransactionWithTheKey() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal w = request(alice, 400);

    assertThat(db.balance(alice)).isEqualTo(Amount.fen(600));
    Booked booked = booked(w);
    assertThat(booked.withdrawal().status()).isEqualTo(REQUESTED);
    assertThat(booked.debited()).isEqualTo(Amount.fen(400));
    assertThat(booked.inFlight()).isEqualTo(Amount.fen(400));
    assertThat(withdrawals.transitions(w.id()))
        .containsExactly(new Transition(null, REQUESTED, "requested", T0));
    assertThat(db.ledger.wallet(alice, 10).entries())
        .extracting(e -> e.kind(), e -> e.amount().fen())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(EntryKind.WITHDRAW, -400L),
            org.assertj.core.groups.Tuple.tuple(EntryKind.TOPUP, 1_000L));
  }

  /**
   * Its answer purged, a key still names the withdrawal it made: the same key again (a client
   * retrying a request made days ago) is 409 with nothing debited, not a second payout. Another
   * user may use the same key.
   */
  @Test
  void request_withAKeyWhoseAnswerWasPurged_isAConflict_andDebitsNothing() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    IdempotencyKey key = newKey(alice);
    StoredAnswer answer = new StoredAnswer(key.requestHash(), "ACCEPTED", "{}");
    Withdrawal first = Withdrawal.requested(withdrawals.nextId(), 0, alice, Amount.fen(300), T0);
    withdrawals.request(first, T0, key, answer);
    db.database.answers().deleteStoredBefore(Instant.now().plusSeconds(60), 1_000);
    assertThat(withdrawals.answerFor(key)).isEmpty();
    assertThat(withdrawals.keyUsed(alice, key.key())).as("the withdrawal keeps its key").isTrue();
    assertThat(withdrawals.keyUsed(user("bob"), key.key())).isFalse();

    Withdrawal again = Withdrawal.requested(withdrawals.nextId(), 0, alice, Amount.fen(300), T0);
    assertThatThrownBy(() -> withdrawals.request(again, T0, key, answer))
        .isInstanceOfSatisfying(
            RejectedException.class,
            e -> assertThat(e.rejection()).isEqualTo(Rejection.IDEMPOTENCY_CONFLICT));
    assertThat(withdrawals.find(again.id())).isEmpty();
    assertThat(withdrawals.answerFor(key)).as("nothing claimed either").isEmpty();
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(700));

    String bob = user("bob");
    db.topUp(bob, 1_000);
    IdempotencyKey bobsKey = key(bob, WithdrawalService.ENDPOINT, key.key());
    Withdrawal bobs = Withdrawal.requested(withdrawals.nextId(), 0, bob, Amount.fen(300), T0);
    withdrawals.request(
        bobs, T0, bobsKey, new StoredAnswer(bobsKey.requestHash(), "ACCEPTED", "{}"));
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(700));
  }

  @Test
  void request_withoutTheFunds_isRefused_andStoresNeitherKeyNorWithdrawal() {
    String alice = user("alice");
    db.topUp(alice, 100);
    Withdrawal w = Withdrawal.requested(withdrawals.nextId(), 0, alice, Amount.fen(101), T0);
    IdempotencyKey key = newKey(alice);

    assertThatThrownBy(
            () -> withdrawals.request(w, T0, key, new StoredAnswer("h", "ACCEPTED", "{}")))
        .isInstanceOfSatisfying(
            RejectedException.class,
            e -> assertThat(e.rejection()).isEqualTo(Rejection.INSUFFICIENT_FUNDS));
    assertThat(withdrawals.answerFor(key)).isEmpty();
    assertThat(withdrawals.find(w.id())).isEmpty();
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(100));
  }

  @Test
  void concurrentRequestsWithOneKey_debitOnce() throws InterruptedException {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    IdempotencyKey key = newKey(alice);
    List<Race.Result<Long>> results =
        Race.run(
            4,
            () -> {
              Withdrawal w =
                  Withdrawal.requested(withdrawals.nextId(), 0, alice, Amount.fen(300), T0);
              withdrawals.request(
                  w, T0, key, new StoredAnswer(key.requestHash(), "ACCEPTED", "{}"));
              return w.id();
            });

    assertThat(results.stream().filter(r -> r.failure() == null)).hasSize(1);
    assertThat(results.stream().filter(r -> r.failure() != null))
        .allSatisfy(r -> assertThat(r.failure()).isInstanceOf(IdempotencyRaceException.class));
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(700));
  }

  @Test
  void succeeded_movesTheMoneyToTheGateway_andRecordsTheTransition() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal w = sent(alice, 400);

    Withdrawal done =
        withdrawals.move(move(w.id(), Set.of(SENT, UNKNOWN), SUCCEEDED)).orElseThrow();

    assertThat(done.status()).isEqualTo(SUCCEEDED);
    assertThat(done.gatewayRef()).isEqualTo("G-" + w.id());
    assertThat(done.attempts()).isEqualTo(1);
    Booked booked = booked(w);
    assertThat(booked.paid()).isEqualTo(Amount.fen(400));
    assertThat(booked.inFlight()).isEqualTo(Amount.ZERO);
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(600));
    assertThat(withdrawals.transitions(w.id()))
        .extracting(Transition::from, Transition::to)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(null, REQUESTED),
            org.assertj.core.groups.Tuple.tuple(REQUESTED, SENT),
            org.assertj.core.groups.Tuple.tuple(SENT, SUCCEEDED));
  }

  @Test
  void failed_returnsTheMoneyToTheWallet() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal w = sent(alice, 400);

    withdrawals.move(move(w.id(), Set.of(SENT, UNKNOWN), FAILED)).orElseThrow();

    assertThat(db.balance(alice)).isEqualTo(Amount.fen(1_000));
    assertThat(booked(w).returned()).isEqualTo(Amount.fen(400));
    assertThat(db.ledger.wallet(alice, 1).entries().getFirst().kind())
        .isEqualTo(EntryKind.WITHDRAW_RETURN);
  }

  @Test
  void racingSettlers_settleOnce_theOthersLearnTheyLost() throws InterruptedException {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal w = sent(alice, 400);

    List<Race.Result<Optional<Withdrawal>>> results =
        Race.run(
            List.of(
                () -> withdrawals.move(move(w.id(), Set.of(SENT, UNKNOWN), SUCCEEDED)),
                () -> withdrawals.move(move(w.id(), Set.of(SENT, UNKNOWN), FAILED)),
                () -> withdrawals.move(move(w.id(), Set.of(SENT, UNKNOWN), SUCCEEDED)),
                () -> withdrawals.move(move(w.id(), Set.of(SENT), UNKNOWN))));

    assertThat(results).allSatisfy(r -> assertThat(r.failure()).isNull());
    assertThat(results.stream().filter(r -> r.value().isPresent()))
        .hasSizeBetween(1, 2); // SENT->UNKNOWN may win first, then one settler
    Booked booked = booked(w);
    assertThat(booked.withdrawal().status().settled()).isTrue();
    assertThat(booked.paid().plus(booked.returned())).isEqualTo(Amount.fen(400));
    assertThat(booked.inFlight()).isEqualTo(Amount.ZERO);
  }

  @Test
  void aResendSeesTheAttemptsItAskedAbout_orDoesNothing() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal w = sent(alice, 400);
    Withdrawal unknown = withdrawals.move(move(w.id(), Set.of(SENT), UNKNOWN)).orElseThrow();
    Move stale = new Move(w.id(), Set.of(UNKNOWN), SENT, "resend", T0, T0, null, true, 0);

    assertThat(withdrawals.move(stale)).isEmpty();
    Move current =
        new Move(w.id(), Set.of(UNKNOWN), SENT, "resend", T0, T0, null, true, unknown.attempts());
    assertThat(withdrawals.move(current).orElseThrow().attempts()).isEqualTo(2);
  }

  @Test
  void aRefusalIsCountedWhileUnsettled_whateverTheStatus_andNeverAfter() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal w = sent(alice, 400);

    assertThat(withdrawals.countRefusal(w.id()).orElseThrow().refusals()).isEqualTo(1);
    withdrawals.move(move(w.id(), Set.of(SENT), UNKNOWN)).orElseThrow();
    Withdrawal counted = withdrawals.countRefusal(w.id()).orElseThrow();
    assertThat(counted.refusals()).isEqualTo(2);
    assertThat(counted.status()).isEqualTo(UNKNOWN);
    assertThat(withdrawals.transitions(w.id()))
        .as("a count is not a move")
        .extracting(Transition::to)
        .containsExactly(REQUESTED, SENT, UNKNOWN);

    withdrawals.move(move(w.id(), Set.of(UNKNOWN), FAILED)).orElseThrow();
    assertThat(withdrawals.countRefusal(w.id())).isEmpty();
    assertThat(withdrawals.find(w.id()).orElseThrow().refusals()).isEqualTo(2);
    assertThat(withdrawals.countRefusal(Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void concurrentJanitors_claimDisjointWithdrawals_andLeaseThem() throws InterruptedException {
    String alice = user("alice");
    db.topUp(alice, 10_000);
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      ids.add(request(alice, 10).id());
    }
    Instant now = T0.plus(Duration.ofMinutes(1));
    Instant leasedUntil = now.plus(Duration.ofMinutes(5));

    List<Race.Result<List<Withdrawal>>> claims =
        Race.run(4, () -> withdrawals.claimDue(now, 7, x -> leasedUntil));

    List<Long> all = claims.stream().flatMap(r -> r.value().stream()).map(Withdrawal::id).toList();
    assertThat(all).doesNotHaveDuplicates();
    // Other tests of the class leave unsettled withdrawals too: look at this test's own.
    List<Long> claimed = all.stream().filter(ids::contains).toList();
    assertThat(claimed).isNotEmpty();
    assertThat(withdrawals.claimDue(now, 1_000, x -> leasedUntil))
        .extracting(Withdrawal::id)
        .doesNotContainAnyElementsOf(claimed);
    assertThat(withdrawals.find(claimed.getFirst()).orElseThrow().checks()).isEqualTo(1);
    assertThat(withdrawals.claimDue(leasedUntil, 1_000, x -> leasedUntil.plusSeconds(1)))
        .extracting(Withdrawal::id)
        .containsAll(claimed);
  }

  @Test
  void settledWithdrawals_areNeverDue() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal w = sent(alice, 400);
    withdrawals.move(move(w.id(), Set.of(SENT), FAILED)).orElseThrow();

    assertThat(withdrawals.claimDue(T0.plus(Duration.ofDays(365)), 1_000, x -> T0))
        .extracting(Withdrawal::id)
        .doesNotContain(w.id());
  }

  @Test
  void unsettledBefore_findsThePendingOnesCreatedBefore_withTheirBooks() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal pending = sent(alice, 400);
    Withdrawal failed = sent(alice, 300);
    withdrawals.move(move(failed.id(), Set.of(SENT), FAILED)).orElseThrow();

    List<Booked> before = withdrawals.unsettledBefore(T0.plusMillis(1), 1_000);

    assertThat(before).extracting(b -> b.withdrawal().id()).contains(pending.id());
    assertThat(before).extracting(b -> b.withdrawal().id()).doesNotContain(failed.id());
    assertThat(before)
        .filteredOn(b -> b.withdrawal().id() == pending.id())
        .singleElement()
        .satisfies(b -> assertThat(b.inFlight()).isEqualTo(Amount.fen(400)));
    assertThat(withdrawals.unsettledBefore(T0, 1_000))
        .extracting(b -> b.withdrawal().id())
        .doesNotContain(pending.id());
  }

  @Test
  void pages_newestFirst() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    long a = request(alice, 1).id();
    long b = request(alice, 2).id();
    long c = request(alice, 3).id();

    assertThat(withdrawals.page(alice, null, 2)).extracting(Withdrawal::id).containsExactly(c, b);
    assertThat(withdrawals.page(alice, b, 2)).extracting(Withdrawal::id).containsExactly(a);
    assertThat(withdrawals.since(T0, 1_000)).extracting(x -> x.withdrawal().id()).contains(a, b, c);
  }

  /**
   * The audit's window holds the withdrawals created in it and those that moved in it: one
   * requested before and settled within is compared with the statement of its settle day.
   */
  @Test
  void since_holdsTheWithdrawalsCreatedOrMovedSince() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Withdrawal settledLater = sent(alice, 100);
    withdrawals.move(move(settledLater.id(), Set.of(SENT), SUCCEEDED)).orElseThrow();
    Withdrawal untouched = request(alice, 200);

    assertThat(withdrawals.since(T0.plusMillis(500), 1_000))
        .extracting(b -> b.withdrawal().id())
        .as("moved at T0 + 1 s, created at T0")
        .contains(settledLater.id())
        .doesNotContain(untouched.id());
  }
}
