package hongbao.core.withdrawal;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.ledger.Idempotency;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Takes withdrawal requests: validate, replay or refuse a known idempotency key, credit the
 * caller's reward tokens (forced credit), then debit the wallet into the withdrawal's in-flight
 * account in one transaction with the key, and hand the sending to {@code dispatch}. The answer
 * does not wait for the gateway; a withdrawal the dispatch never sends (a crash, a full queue) is
 * sent by the janitor once its grace is over.
 */
public final class WithdrawalService {

  public static final String ENDPOINT = "withdraw";
  public static final int PAGE_MAX = 100;

  /** The longest reason an operator may give for closing a withdrawal. */
  public static final int REASON_MAX = 200;

  private static final System.Logger LOG = System.getLogger(WithdrawalService.class.getName());

  private final WithdrawalStore store;
  private final ForcedCredit forcedCredit;
  private final Settlement settlement;
  private final Executor dispatch;
  private final Switches switches;
  private final WithdrawalTimings timings;
  private final Clock clock;
  private final LongSupplier nonces;

  /**
   * @param nonces random values, one per withdrawal, for its out-trade-no; thread-safe
   */
  public WithdrawalService(
      WithdrawalStore store,
      ForcedCredit forcedCredit,
      Settlement settlement,
      Executor dispatch,
      Switches switches,
      WithdrawalTimings timings,
      Clock clock,
      LongSupplier nonces) {
    this.store = store;
    this.forcedCredit = forcedCredit;
    this.settlement = settlement;
    this.dispatch = dispatch;
    this.switches = switches;
    this.timings = timings;
    this.clock = clock;
    this.nonces = nonces;
  }

  /**
   * Requests a withdrawal and returns the answer to give the client: the stored one for a replay,
   * or a new one rendered from the withdrawal by {@code render}.
   */
  public StoredAnswer request(
      WithdrawalRequest request, IdempotencyKey key, Function<Withdrawal, StoredAnswer> render) {
    request.validate();
    Optional<StoredAnswer> earlier = Idempotency.replay(store::answerFor, key);
    if (earlier.isPresent()) {
      return earlier.get();
    }
    // The key's withdrawal was made, its answer purged since: 409, in the contract's order (before
    // the switch), and before forced credit, which a refused request must not run. Unless a copy
    // of this request made it just now: its answer is stored with it, and is this one's too.
    if (store.keyUsed(request.userId(), key.key())) {
      return Idempotency.replay(store::answerFor, key).orElseThrow(WithdrawalStore::keyUsedBefore);
    }
    if (!switches.enabled(Switch.WITHDRAWALS)) {
      throw new RejectedException(Rejection.DISABLED, "withdrawals are switched off");
    }
    // A request racing another under the same key with another body runs it too before it learns
    // (at the store) that it is a 409: harmless, the credit only pays the user's own rewards early.
    forcedCredit.credit(request.userId(), request.tokens());
    Instant now = clock.instant();
    Withdrawal withdrawal =
        Withdrawal.requested(
            store.nextId(),
            nonces.getAsLong(),
            request.userId(),
            Amount.fen(request.amountFen()),
            now);
    StoredAnswer answer = render.apply(withdrawal);
    try {
      store.request(withdrawal, now.plus(timings.sendGrace()), key, answer);
    } catch (IdempotencyRaceException race) {
      return Idempotency.replay(store::answerFor, key).orElseThrow(() -> race);
    }
    dispatchSend(withdrawal.id());
    return answer;
  }

  private void dispatchSend(long id) {
    try {
      dispatch.execute(() -> sendQuietly(id));
    } catch (RejectedExecutionException full) {
      LOG.log(Level.DEBUG, "withdrawal {0}: senders busy; the janitor sends it", id);
    }
  }

  private void sendQuietly(long id) {
    try {
      settlement.send(id);
    } catch (Unavailable outage) {
      // The withdrawal is safe in its state; the janitor takes it up once the outage is over.
      LOG.log(Level.WARNING, "withdrawal " + id + ": not sent; the janitor retries", outage);
    }
  }

  /**
   * An operator's close of a withdrawal the gateway will not settle ({@link
   * Settlement#closeUnpaid}); the answer is the withdrawal with its transitions.
   *
   * @param reason 1 to {@value #REASON_MAX} characters, not all blank; kept in the withdrawal's
   *     history and shown to its owner with the FAILED status
   */
  public Optional<Details> closeUnpaid(long id, String reason) {
    if (reason.isBlank() || reason.codePointCount(0, reason.length()) > REASON_MAX) {
      throw new RejectedException(
          Rejection.INVALID_REQUEST,
          "reason must be 1 to " + REASON_MAX + " characters, not all blank");
    }
    return settlement.closeUnpaid(id, reason).map(w -> new Details(w, store.transitions(id)));
  }

  /** A withdrawal with its transitions, oldest first. */
  public Optional<Details> details(long id) {
    return store.find(id).map(w -> new Details(w, store.transitions(id)));
  }

  /** A page of the user's withdrawals, newest first, and the cursor of the next page. */
  public Page page(String userId, Long beforeId, int limit) {
    if (limit < 1 || limit > PAGE_MAX) {
      throw new IllegalArgumentException("limit " + limit + " not in 1.." + PAGE_MAX);
    }
    List<Withdrawal> items = store.page(userId, beforeId, limit + 1);
    Long next = items.size() > limit ? items.get(limit - 1).id() : null;
    return new Page(items.subList(0, Math.min(limit, items.size())), next);
  }

  public record Details(Withdrawal withdrawal, List<Transition> transitions) {
    public Details {
      transitions = List.copyOf(transitions);
    }
  }

  /**
   * @param nextCursor the id to page below, or null on the last page
   */
  public record Page(List<Withdrawal> items, Long nextCursor) {
    public Page {
      items = List.copyOf(items);
    }
  }
}
