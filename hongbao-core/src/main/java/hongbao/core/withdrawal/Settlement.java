package hongbao.core.withdrawal;

import hongbao.core.Invariants;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Drives a withdrawal towards settled, one step at a time, and never pays twice:
 *
 * <ul>
 *   <li>A transfer request is recorded (SENT) before it leaves, so a crash at any point leaves a
 *       withdrawal that says whether a request may be out there.
 *   <li>Never re-send before asking: after SYSTEM_ERROR, a timeout or a crash the gateway is
 *       queried, and only NOT_FOUND allows another request — with the same out-trade-no, so the
 *       gateway itself refuses to pay it twice even if our NOT_FOUND was stale.
 *   <li>Only the gateway's final word settles: SUCCESS moves the money to the gateway account, a
 *       final FAIL (or too many retryable refusals, each a definite "not paid") returns it to the
 *       wallet. Every move is a compare-and-set, so the request thread, janitors and callbacks
 *       racing on one withdrawal move it once.
 * </ul>
 */
public final class Settlement {

  private static final System.Logger LOG = System.getLogger(Settlement.class.getName());

  /**
   * How long ago a request must have gone unanswered before an operator may close its withdrawal
   * ({@link #closeUnpaid}): one given up on more recently may still be on its way to the gateway,
   * and a NOT_FOUND would be stale. The reconciler names a withdrawal pending after as long.
   */
  public static final Duration OPERATOR_CLOSE_AFTER = Duration.ofHours(1);

  /** The cause of a move after a retryable refusal: that request was answered. */
  private static final String REFUSED = "transfer: FAIL (retryable) ";

  private final WithdrawalStore store;
  private final Gateway gateway;
  private final WithdrawalTimings timings;
  private final Backoff backoff;
  private final Clock clock;

  public Settlement(
      WithdrawalStore store,
      Gateway gateway,
      WithdrawalTimings timings,
      Backoff backoff,
      Clock clock) {
    this.store = store;
    this.gateway = gateway;
    this.timings = timings;
    this.backoff = backoff;
    this.clock = clock;
  }

  /** Sends a REQUESTED withdrawal; nothing when another settler sent it first. */
  public void send(long id) {
    Instant now = clock.instant();
    store
        .move(Move.firstSend(id, now, now.plus(timings.answerDeadline())))
        .ifPresent(this::transfer);
  }

  /** One step for a withdrawal the janitor took up. */
  public void advance(Withdrawal withdrawal) {
    switch (withdrawal.status()) {
      case REQUESTED -> send(withdrawal.id());
      case SENT -> unanswered(withdrawal).ifPresent(this::ask);
      case UNKNOWN -> ask(withdrawal);
      case SUCCEEDED, FAILED -> {}
    }
  }

  /** Applies a gateway callback; duplicates and late ones change nothing. */
  public void notice(GatewayNotice notice) {
    Optional<Withdrawal> found = store.findByOutTradeNo(notice.outTradeNo());
    if (found.isEmpty()) {
      LOG.log(Level.WARNING, "gateway notice for unknown out-trade-no " + notice.outTradeNo());
      return;
    }
    Withdrawal withdrawal = found.get();
    if (withdrawal.status().settled()) {
      // Callbacks come twice and after the transfer's own answer: most find nothing to do.
      WithdrawalStatus said =
          notice.answer() instanceof QueryAnswer.Success
              ? WithdrawalStatus.SUCCEEDED
              : WithdrawalStatus.FAILED;
      if (withdrawal.status() != said) {
        reportContradiction(withdrawal.id(), said, "notice: " + notice.answer());
      }
      return;
    }
    switch (notice.answer()) {
      case QueryAnswer.Success s ->
          settle(
              withdrawal, s.gatewayRef(), "notice: SUCCESS" + amountNote(withdrawal, s.amount()));
      case QueryAnswer.Fail f -> fail(withdrawal, "notice: FAIL " + f.reason());
      default -> throw new IllegalArgumentException("a notice that does not settle: " + notice);
    }
  }

  // ------------------------------------------------------------------------------- transfer

  private void transfer(Withdrawal sent) {
    TransferAnswer answer = gateway.transfer(sent.outTradeNo(), sent.userId(), sent.amount());
    switch (answer) {
      case TransferAnswer.Success s ->
          settle(sent, s.gatewayRef(), "transfer: SUCCESS" + amountNote(sent, s.amount()));
      case TransferAnswer.Fail f -> {
        if (f.retryable()) {
          refused(sent, f.reason());
        } else {
          fail(sent, "transfer: FAIL " + f.reason());
        }
      }
      case TransferAnswer.SystemError e -> unknown(sent, "transfer: SYSTEM_ERROR " + e.message());
      case TransferAnswer.NoAnswer n -> unknown(sent, "transfer: no answer (" + n.cause() + ")");
    }
  }

  /**
   * A retryable refusal is counted whatever became of the withdrawal while its answer was on the
   * way (another settler may have taken the request for unanswered, or sent the next one): counted
   * only when it still found its request SENT, refusals would stay behind attempts for good and a
   * gateway that keeps refusing would be asked forever.
   */
  private void refused(Withdrawal sent, String reason) {
    String cause = REFUSED + reason;
    Optional<Withdrawal> found = store.countRefusal(sent.id());
    if (found.isEmpty()) {
      return; // settled meanwhile by the gateway's word on another request
    }
    Withdrawal counted = found.get();
    Invariants.check(
        counted.refusals() <= counted.attempts(),
        "withdrawal %d: %d refusals of %d requests",
        counted.id(),
        counted.refusals(),
        counted.attempts());
    Instant now = clock.instant();
    // Giving up returns the money, which is safe only when every request was refused: one that went
    // unanswered may still be on its way to the gateway (a stale NOT_FOUND let us send again), and
    // would be paid after the refund. Such a withdrawal stays in doubt and keeps being asked about.
    boolean everyRequestRefused = counted.refusals() == counted.attempts();
    if (counted.refusals() >= timings.refusalsMax() && everyRequestRefused) {
      store.move(
          Move.giveUp(counted, cause + "; gave up after " + counted.refusals() + " refusals", now));
      return;
    }
    // Through UNKNOWN, not straight back to SENT: the next request also asks first. Only this
    // request's SENT moves; a newer request, on its way, is not this refusal's to judge.
    store.move(Move.unknown(sent, cause, now, now.plus(backoff.after(counted.refusals()))));
  }

  /** Asked about after a backoff that grows with every time the janitor took it up. */
  private void unknown(Withdrawal sent, String cause) {
    Instant now = clock.instant();
    store.move(Move.unknown(sent, cause, now, now.plus(backoff.after(sent.checks()))));
  }

  // ------------------------------------------------------------------------------------ ask

  private Optional<Withdrawal> unanswered(Withdrawal sent) {
    Instant now = clock.instant();
    return store.move(
        Move.unknown(
            sent,
            "no transfer answer within " + timings.answerDeadline(),
            now,
            now.plus(backoff.after(sent.checks()))));
  }

  private void ask(Withdrawal unknown) {
    QueryAnswer answer = gateway.query(unknown.outTradeNo());
    switch (answer) {
      case QueryAnswer.Success s ->
          settle(unknown, s.gatewayRef(), "query: SUCCESS" + amountNote(unknown, s.amount()));
      case QueryAnswer.Fail f -> fail(unknown, "query: FAIL " + f.reason());
      case QueryAnswer.NotFound nf -> {
        Instant now = clock.instant();
        store
            .move(Move.resend(unknown, now, now.plus(timings.answerDeadline())))
            .ifPresent(this::transfer);
      }
      // Still processing, or nothing learned: the janitor's lease already set the next check.
      case QueryAnswer.Processing p -> {}
      case QueryAnswer.NoAnswer n -> {}
    }
  }

  // ------------------------------------------------------------------------------ operator

  /**
   * An operator closes a withdrawal that stays in doubt for good: its first request went
   * unanswered, and the gateway refused every later one as retryable. Its refusals stay behind its
   * attempts (the unanswered request might still reach the gateway and be paid), so it is never
   * given up on by itself, and the reconciler names it as pending. The operator, having learnt from
   * the gateway's side that nothing was or will be paid, closes it here.
   *
   * <p>Only once every request that went unanswered was given up on at least {@link
   * #OPERATOR_CLOSE_AFTER} ago: a more recent one may still reach the gateway. The gateway is then
   * asked. Its word, when it has one, settles the withdrawal as the janitor's query would; only
   * NOT_FOUND lets the operator's word return the money, and only while no request is on its way
   * (UNKNOWN) and none was made since it was read. Calling it again on the withdrawal it closed
   * answers the same.
   *
   * @param reason the operator's, kept in the transition's cause
   * @return the withdrawal, FAILED with its money back in the wallet; empty when there is none
   * @throws RejectedException CONFLICT when the gateway paid it, a request is on its way or went
   *     unanswered too recently, the gateway is still processing it, or it moved on meanwhile:
   *     nothing was moved by the operator's word
   * @throws Unavailable when the gateway does not answer the query
   */
  public Optional<Withdrawal> closeUnpaid(long id, String reason) {
    Optional<Withdrawal> found = store.find(id);
    if (found.isEmpty()) {
      return found;
    }
    Withdrawal seen = found.get();
    switch (seen.status()) {
      case FAILED -> {
        return found;
      }
      case SUCCEEDED -> throw paid();
      case REQUESTED, SENT -> throw onItsWay();
      case UNKNOWN -> {}
    }
    Instant unansweredBefore = clock.instant().minus(OPERATOR_CLOSE_AFTER);
    for (Transition t : store.transitions(id)) {
      boolean unanswered =
          t.from() == WithdrawalStatus.SENT
              && t.to() == WithdrawalStatus.UNKNOWN
              && !t.cause().startsWith(REFUSED);
      if (unanswered && t.at().isAfter(unansweredBefore)) {
        throw new RejectedException(
            Rejection.CONFLICT,
            "a transfer request of this withdrawal went unanswered less than "
                + OPERATOR_CLOSE_AFTER.toHours()
                + " h ago and may still reach the gateway: try again later");
      }
    }
    QueryAnswer answer = gateway.query(seen.outTradeNo());
    switch (answer) {
      case QueryAnswer.Success s ->
          settle(seen, s.gatewayRef(), "query: SUCCESS" + amountNote(seen, s.amount()));
      case QueryAnswer.Fail f -> fail(seen, "query: FAIL " + f.reason());
      case QueryAnswer.NotFound nf ->
          store.move(
              Move.closedByOperator(
                  seen, "query: NOT_FOUND; closed by an operator: " + reason, clock.instant()));
      case QueryAnswer.Processing p ->
          throw new RejectedException(
              Rejection.CONFLICT, "the gateway is still processing this withdrawal");
      case QueryAnswer.NoAnswer n ->
          throw new Unavailable("gateway", "no answer to the query (" + n.cause() + ")", null);
    }
    Withdrawal now = store.find(id).orElseThrow();
    return switch (now.status()) {
      case FAILED -> Optional.of(now);
      case SUCCEEDED -> throw paid();
      // Moved on meanwhile (the janitor heard NOT_FOUND first and sent another request): the
      // operator's word was about a withdrawal that is no longer as it was seen.
      case REQUESTED, SENT, UNKNOWN ->
          throw new RejectedException(
              Rejection.CONFLICT,
              "this withdrawal moved on while the gateway was asked: try again");
    };
  }

  private static RejectedException paid() {
    return new RejectedException(Rejection.CONFLICT, "the gateway paid this withdrawal");
  }

  private static RejectedException onItsWay() {
    return new RejectedException(
        Rejection.CONFLICT,
        "a transfer request of this withdrawal is on its way: try again once it was answered or"
            + " asked about");
  }

  // --------------------------------------------------------------------------------- settle

  private void settle(Withdrawal withdrawal, String gatewayRef, String cause) {
    Move move =
        Move.settle(
            withdrawal.id(), WithdrawalStatus.SUCCEEDED, cause, clock.instant(), gatewayRef);
    if (store.move(move).isEmpty()) {
      reportContradiction(withdrawal.id(), WithdrawalStatus.SUCCEEDED, cause);
    }
  }

  private void fail(Withdrawal withdrawal, String cause) {
    Move move = Move.settle(withdrawal.id(), WithdrawalStatus.FAILED, cause, clock.instant(), null);
    if (store.move(move).isEmpty()) {
      reportContradiction(withdrawal.id(), WithdrawalStatus.FAILED, cause);
    }
  }

  /**
   * A settling answer that found the withdrawal settled the other way: the gateway contradicts
   * itself, or paid after we gave up. Nothing is moved (the money is not ours to guess about);
   * reconciliation against the gateway's statement names it.
   */
  private void reportContradiction(long id, WithdrawalStatus said, String cause) {
    store
        .find(id)
        .filter(current -> current.status().settled() && current.status() != said)
        .ifPresent(
            current ->
                LOG.log(
                    Level.ERROR,
                    "withdrawal {0} is {1} but the gateway now says {2}: {3}",
                    id,
                    current.status(),
                    said,
                    cause));
  }

  private static String amountNote(Withdrawal withdrawal, Amount paid) {
    return paid.equals(withdrawal.amount())
        ? ""
        : " (the gateway paid " + paid + ", not " + withdrawal.amount() + ")";
  }
}
