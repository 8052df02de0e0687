package hongbao.core.reward;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * SendBonus: validates a reward request, reserves its cost in the campaign's budget (recording the
 * trade, so a replayed tradeNo answers its first token), claims its tradeNo for the campaign (a
 * tradeNo another campaign holds is a conflict, its reservation taken back; a refused send claims
 * nothing, but answers that conflict first), keeps the server's copy of the encrypted token, and
 * puts the event on the virtual queue of its type. Synchronous mode credits it instead and releases
 * the budget if the issuer refuses; it issues as the consumers do, so a fused type is refused and
 * the type's rate holds for it too.
 */
public final class RewardSender {

  private static final System.Logger LOG = System.getLogger(RewardSender.class.getName());

  /**
   * The longest a synchronous send waits for its type's rate to let it through; longer, and its
   * caller is told to try again rather than held.
   */
  static final long SYNC_RATE_WAIT_MILLIS = 1_000;

  /**
   * Longer than any synchronous send lasts (its rate wait, the issuer's timeout of at most {@link
   * Issuer#LONGEST_CALL}, the book's statements): a synchronous send accepted longer ago that is
   * neither credited nor undone has stopped (a crash, or an outage that hid its outcome from it).
   */
  static final Duration SYNC_SETTLED_WITHIN = Duration.ofMinutes(5);

  private final RewardTypes types;
  private final RewardTokens tokens;
  private final RewardBudget budget;
  private final FundedBudgets funded;
  private final TradeClaims claims;
  private final TokenStore tokenStore;
  private final RewardQueues queues;
  private final RewardService service;
  private final RewardBook book;
  private final Switches switches;
  private final TypeThrottle throttle;
  private final RewardHandler.Sleeper sleeper;
  private final Clock clock;

  public RewardSender(
      RewardTypes types,
      RewardTokens tokens,
      RewardBudget budget,
      FundedBudgets funded,
      TradeClaims claims,
      TokenStore tokenStore,
      RewardQueues queues,
      RewardService service,
      RewardBook book,
      Switches switches,
      TypeThrottle throttle,
      RewardHandler.Sleeper sleeper,
      Clock clock) {
    this.types = types;
    this.tokens = tokens;
    this.budget = budget;
    this.funded = funded;
    this.claims = claims;
    this.tokenStore = tokenStore;
    this.queues = queues;
    this.service = service;
    this.book = book;
    this.switches = switches;
    this.throttle = throttle;
    this.sleeper = sleeper;
    this.clock = clock;
  }

  /** Accepts a reward for asynchronous crediting. */
  public SendOutcome send(RewardRequest request) {
    return send(request, false);
  }

  /** Credits a reward before answering. */
  public SendOutcome sendSync(RewardRequest request) {
    return send(request, true);
  }

  private SendOutcome send(RewardRequest request, boolean sync) {
    if (sync && !book.kept()) {
      // A sender without the book could not tell a failed issue from a credited one, and would
      // undo a reservation that may have paid: refused before anything is reserved.
      throw new IllegalStateException("synchronous mode needs the reward book (crediting)");
    }
    Reward reward = request.at(clock.instant());
    RewardType type =
        types
            .findFresh(reward.type())
            .orElseThrow(
                () ->
                    new RejectedException(
                        Rejection.INVALID_REQUEST, "unknown reward type " + reward.type()));
    String token = tokens.seal(reward);
    Amount cost = type.kind() == RewardKind.CASH ? reward.amount() : Amount.ZERO;
    // The contract's order: a replay or a conflict answers before the switch is looked at, the
    // switch before the campaign and its budget. Only a synchronous send needs issuing now.
    String stopped = sync ? stopped(type) : null;
    boolean disabled = stopped != null;
    switch (reserve(reward, cost, token, sync)) {
      case RewardBudget.Reservation.Reserved reserved -> {
        if (disabled) {
          throw refused(reward, switchedOff(stopped));
        }
        if (sync) {
          try {
            admitNow(type);
          } catch (RuntimeException refusal) {
            // A refusal, or an outage of the throttle: either way nothing is issued now.
            throw refused(reward, refusal);
          }
        }
        claimReserved(reward, sync);
      }
      case RewardBudget.Reservation.Replay replay -> {
        claimReplayed(reward, false);
        return replayed(reward, type, replay.token());
      }
      case RewardBudget.Reservation.SyncReplay replay -> {
        claimReplayed(reward, true);
        return replayedSync(reward, type, replay);
      }
      case RewardBudget.Reservation.Conflict conflict -> throw anotherRequest();
      case RewardBudget.Reservation.Insufficient insufficient -> {
        refuseIfClaimedElsewhere(reward);
        if (disabled) {
          throw switchedOff(stopped);
        }
        throw new RejectedException(
            Rejection.INSUFFICIENT_FUNDS,
            "the campaign's budget has " + insufficient.left() + " left");
      }
      case RewardBudget.Reservation.LapsedFreeze lapsed ->
          // Settled once already (a second edit's freeze lapsed meanwhile): the next send settles.
          throw new Unavailable(
              "campaign", "the campaign's budget is being resized; send again", null);
      case RewardBudget.Reservation.UnknownCampaign unknown -> {
        refuseIfClaimedElsewhere(reward);
        if (disabled) {
          throw switchedOff(stopped);
        }
        throw new RejectedException(
            Rejection.NOT_FOUND, "no campaign " + reward.campaignId() + " with a budget");
      }
    }
    if (sync) {
      // No token copy: the caller holds no token until this call answers, and a copy would let a
      // withdrawal's forced credit queue the reward while it issues; should the issue then fail
      // and be undone (answered ISSUER_FAILED, the budget given back), that credit would still pay
      // it. Once credited, the reward book vouches for the token.
      return creditNow(reward, type, token);
    }
    keepCopy(reward, token);
    return enqueue(reward, type, token);
  }

  /**
   * Reserves the cost. A campaign whose budget keys are gone though the books fund it had them lost
   * by Redis: they are opened again (the keys that survived are left as they are) and the
   * reservation tried once more. The reservations Redis forgot are forgotten with them, so the keys
   * may allow more than the escrow still holds; crediting refuses what the escrow cannot pay, and
   * the reconciler names the forgotten trades (RewardBudgetLossTest, RewardBudgetKeysLossTest).
   */
  private RewardBudget.Reservation reserve(Reward reward, Amount cost, String token, boolean sync) {
    RewardBudget.Reservation reservation = budget.reserve(reward, cost, token, sync);
    if (reservation instanceof RewardBudget.Reservation.LapsedFreeze) {
      settleLapsedFreeze(reward.campaignId());
      reservation = budget.reserve(reward, cost, token, sync);
    }
    if (reservation instanceof RewardBudget.Reservation.UnknownCampaign) {
      Optional<FundedBudgets.Funded> books = funded.find(reward.campaignId());
      if (books.isPresent()) {
        LOG.log(
            Level.WARNING,
            "campaign " + reward.campaignId() + ": budget keys lost, opened again from the books");
        budget.open(reward.campaignId(), books.get().budget(), books.get().version());
        reservation = budget.reserve(reward, cost, token, sync);
      }
    }
    return reservation;
  }

  /**
   * An edit froze the campaign's budget and neither let it go nor had it resized before the freeze
   * ended ({@link LapsedFreezes}). A sender without the books cannot tell whether the edit
   * committed: it answers 503 and leaves the freeze to a sender with books or the campaign closer.
   */
  private void settleLapsedFreeze(String campaignId) {
    if (!funded.booked()) {
      throw new Unavailable(
          "campaign", "the campaign's budget waits for an edit to be settled; send again", null);
    }
    new LapsedFreezes(budget, funded).settle(campaignId);
  }

  /**
   * Claims the tradeNo for the campaign that has just reserved it. Of campaigns racing for one
   * tradeNo each may reserve, but one only claims: the others take their reservations back and
   * answer 409. A claim is never given up, so no undo here can take it from a retry that reserved
   * meanwhile; and nothing is claimed by a send its campaign refused before reserving (404, 402).
   */
  private void claimReserved(Reward reward, boolean sync) {
    TradeClaims.Claim claim;
    try {
      claim = claims.claim(reward.tradeNo(), reward.campaignId(), reward.digest(), sync);
    } catch (RuntimeException outage) {
      try {
        if (sync) {
          budget.release(reward);
        } else {
          // A retry of the same request may have replayed while the claim hung, and queued the
          // event this send never will: its credit needs the reservation.
          budget.releaseUnlessReplayed(reward);
        }
      } catch (RuntimeException alsoDown) {
        outage.addSuppressed(alsoDown);
      }
      throw outage;
    }
    if (claim == TradeClaims.Claim.OTHER) {
      budget.release(reward);
      throw claimedElsewhere();
    }
    if (claim == TradeClaims.Claim.ANOTHER_REQUEST) {
      budget.release(reward);
      throw anotherRequest();
    }
  }

  /**
   * A replay claims too: its first send may have stopped between reserving and claiming. It does
   * not take the first send's reservation back: if another campaign holds the tradeNo, the first
   * send does so when it finds that out, and the replay is the same conflict. A first send that
   * stopped before claiming leaves its reservation to the reconciler (accepted, neither credited
   * nor failed).
   */
  private void claimReplayed(Reward reward, boolean syncTrade) {
    // A synchronous trade may yet be undone, and its record with it: its claim keeps the digest.
    switch (claims.claim(reward.tradeNo(), reward.campaignId(), reward.digest(), syncTrade)) {
      case OTHER -> throw claimedElsewhere();
      case ANOTHER_REQUEST -> throw anotherRequest();
      case CLAIMED, HELD -> {}
    }
  }

  /**
   * A send its campaign refuses claims nothing, but the contract's order puts a conflict before the
   * switch and the campaign's own answer: another campaign's claim, or this campaign's for another
   * body, is answered 409.
   */
  private void refuseIfClaimedElsewhere(Reward reward) {
    Optional<TradeClaims.Claim> conflict =
        claims.conflictOf(reward.tradeNo(), reward.campaignId(), reward.digest());
    if (conflict.isPresent()) {
      throw conflict.get() == TradeClaims.Claim.OTHER ? claimedElsewhere() : anotherRequest();
    }
  }

  private static RejectedException anotherRequest() {
    return new RejectedException(
        Rejection.IDEMPOTENCY_CONFLICT, "this tradeNo was used with a different request");
  }

  private static RejectedException claimedElsewhere() {
    return new RejectedException(
        Rejection.IDEMPOTENCY_CONFLICT, "this tradeNo was used in another campaign");
  }

  private static RejectedException switchedOff(String why) {
    return new RejectedException(Rejection.DISABLED, why);
  }

  /** Why a synchronous send of the type cannot be issued now; null when it can. */
  private String stopped(RewardType type) {
    if (!switches.enabled(Switch.REWARDS)) {
      return "issuing rewards is switched off";
    }
    return type.fused() ? fused(type) : null;
  }

  private static String fused(RewardType type) {
    return "reward type " + type.type() + " is fused: its issuing is stopped";
  }

  /**
   * Takes the type's token for a synchronous send, as a consumer does for a queued one, so that the
   * type's rate bounds every issue of it. Waits at most {@link #SYNC_RATE_WAIT_MILLIS}; a type
   * fused meanwhile, or a longer wait, refuses the send (503). The caller takes the reservation
   * back on any failure here.
   */
  private void admitNow(RewardType type) {
    long waited = 0;
    for (long wait = throttle.acquire(type, 1); wait > 0; wait = throttle.acquire(type, 1)) {
      if (waited + wait > SYNC_RATE_WAIT_MILLIS) {
        throw atItsRate(type);
      }
      try {
        sleeper.sleep(Duration.ofMillis(wait));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Unavailable("rewards", "interrupted waiting for the type's rate", e);
      }
      waited += wait;
      if (types.find(type.type()).map(RewardType::fused).orElse(false)) {
        throw switchedOff(fused(type));
      }
    }
  }

  private static Unavailable atItsRate(RewardType type) {
    return new Unavailable(
        "rewards", "reward type " + type.type() + " is issued at its rate; try again", null);
  }

  /**
   * Refuses a send that has reserved but not claimed: the reservation goes, nothing is claimed, and
   * a conflict with another campaign's claim answers first (thrown here), as the contract orders.
   *
   * @return {@code refusal}, for the caller to throw
   */
  private RuntimeException refused(Reward reward, RuntimeException refusal) {
    try {
      refuseIfClaimedElsewhere(reward);
    } finally {
      budget.release(reward);
    }
    return refusal;
  }

  /**
   * A replay of a synchronous send, whatever mode the replay asks for: CREDITED, as the first send
   * answered, if the book says so. Otherwise the first send may still be issuing, and undo its
   * reservation if that fails, so ACCEPTED would be a promise nothing keeps: the caller is told to
   * try again; once the first send is settled, it is credited (this answers so) or undone (the next
   * try is a send of its own). A first send accepted more than {@link #SYNC_SETTLED_WITHIN} ago
   * stopped before it could do either, and would hold its tradeNo and reservation for good: the
   * replay finishes it, as that send would have (issuer and book are idempotent by tradeNo).
   */
  private SendOutcome replayedSync(
      Reward reward, RewardType type, RewardBudget.Reservation.SyncReplay first) {
    if (credited(reward)) {
      return new SendOutcome.Credited(reward.tradeNo(), first.token());
    }
    Instant now = clock.instant();
    if (now.isBefore(first.acceptedAt().plus(SYNC_SETTLED_WITHIN))) {
      throw stillBeingIssued(reward);
    }
    if (!book.kept()) {
      // Finishing the send means telling a failed issue from a credited one, which only the book
      // can: a sender without it would undo a reservation that paid. A sender with it finishes it.
      throw new Unavailable(
          "reward",
          "the synchronous send of tradeNo "
              + reward.tradeNo()
              + " stopped unsettled; only a sender with the reward book can finish it",
          null);
    }
    // Stopped: the switch, the fuse and the rate hold for finishing it as for any issue, and the
    // reservation stays for a later replay meanwhile.
    String stopped = stopped(type);
    if (stopped != null) {
      throw switchedOff(stopped);
    }
    if (throttle.acquire(type, 1) > 0) {
      throw atItsRate(type);
    }
    // One replay only: the others meet a send that may still be running (this one).
    if (!budget.takeOver(reward, now.minus(SYNC_SETTLED_WITHIN), now)) {
      throw stillBeingIssued(reward);
    }
    LOG.log(
        Level.WARNING,
        "synchronous reward " + reward.tradeNo() + " stopped unsettled; its replay issues it");
    return creditNow(reward, type, first.token());
  }

  private static Unavailable stillBeingIssued(Reward reward) {
    return new Unavailable(
        "reward",
        "the first request with tradeNo " + reward.tradeNo() + " is still being issued",
        null);
  }

  /**
   * A replay of an asynchronous send answers what that send answered, ACCEPTED with its token, even
   * once the reward is credited and whatever mode the replay asks for: the tradeNo names one
   * request, and its answer does not change with the caller's retry.
   *
   * <p>ACCEPTED promises an event on a queue, and the first send may not have put it there: an
   * outage after reserving, whose undo failed too, or a process that died while its send waited for
   * a queue, left the reservation for this replay to find. So while the book holds nothing of the
   * reward, the replay sends the first send's event (and token copy) again. Crediting is idempotent
   * by tradeNo: a second copy of an event that did reach a queue costs a rate token and changes
   * nothing.
   */
  private SendOutcome replayed(Reward reward, RewardType type, String firstToken) {
    if (book.find(reward.tradeNo()).isEmpty()) {
      Reward first = tokens.open(firstToken, reward.userId()).orElse(reward);
      keepCopy(first, firstToken);
      queues.send(first, type.queue(), 0);
    }
    return new SendOutcome.Accepted(reward.tradeNo(), firstToken);
  }

  private boolean credited(Reward reward) {
    return book.find(reward.tradeNo())
        .map(r -> r.status() == RewardRecord.Status.CREDITED)
        .orElse(false);
  }

  /** One attempt, as the seed design does: a lost copy makes the token UNKNOWN, never wrong. */
  private void keepCopy(Reward reward, String token) {
    try {
      tokenStore.save(reward, token);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "token copy of " + reward.tradeNo() + " not stored", e);
    }
  }

  /**
   * Queues the event. When every queue failed it and too many events are held already, the caller
   * is told to try again, but the reservation and the token copy stay: a send that timed out may
   * have landed all the same, and its credit needs them. If it did not, the retry's replay sends
   * the event again. The trade is marked unqueued at once, for the campaign's closer to send it
   * should nobody retry (a rain's win, whose tap draws anew when retried); the reconciler names the
   * reward meanwhile (accepted, neither credited nor failed): held without cause, never spent
   * without a reservation.
   */
  private SendOutcome enqueue(Reward reward, RewardType type, String token) {
    try {
      queues.send(reward, type.queue(), 0);
    } catch (RewardQueues.QueuesFull full) {
      // For the campaign's closer, should nobody retry (a rain's tap draws anew when retried).
      try {
        budget.markUnqueued(reward);
      } catch (RuntimeException alsoDown) {
        // Then only a retry of the same request sends it; the reconciler names it meanwhile.
        LOG.log(
            Level.ERROR,
            "reward " + reward.tradeNo() + ": no queue took it, and its trade could not be marked",
            alsoDown);
        full.addSuppressed(alsoDown);
      }
      throw full;
    }
    return new SendOutcome.Accepted(reward.tradeNo(), token);
  }

  private SendOutcome creditNow(Reward reward, RewardType type, String token) {
    CreditOutcome outcome;
    try {
      outcome = service.credit(reward, type);
    } catch (RuntimeException e) {
      // Issued downstream, or credited here: the reservation stays, for a replay to settle. Issued
      // but not recorded, or with its outcome unknown (the book unreadable), the reward may be
      // owed: nothing undoes it any more, so its token copy is kept now, for the statement and a
      // withdrawal's forced credit, as an asynchronous send's is.
      boolean issued = e instanceof RewardService.IssuedUnrecorded;
      boolean recorded;
      try {
        recorded = book.find(reward.tradeNo()).isPresent();
      } catch (RuntimeException unknown) {
        keepCopy(reward, token);
        if (issued) {
          e.addSuppressed(unknown);
          throw e;
        }
        throw unknown;
      }
      if (recorded) {
        throw e;
      }
      if (issued) {
        keepCopy(reward, token);
        throw e;
      }
      undo(reward);
      return new SendOutcome.IssuerFailed(reward.tradeNo(), "the issuer is unavailable");
    }
    return switch (outcome) {
      case CreditOutcome.Credited credited -> new SendOutcome.Credited(reward.tradeNo(), token);
      case CreditOutcome.Refused refused -> {
        undo(reward);
        yield new SendOutcome.IssuerFailed(reward.tradeNo(), refused.reason());
      }
      case CreditOutcome.Conflict conflict -> {
        // The reward book holds the tradeNo with another request (another campaign's, say): the
        // reservation just made must go, or a 409 would leave budget reserved for nothing.
        undo(reward);
        throw anotherRequest();
      }
    };
  }

  /**
   * Takes back a reservation this send made; its claim stays (see {@link #claimReserved}). The
   * token copy (kept only when an earlier attempt of the same request left the reward owed, and a
   * replay now finishes it) goes before the reservation: a retry of the same request meets the
   * reservation (a replay) until it is gone, so a retry that reserves afresh keeps the copy it
   * saves.
   */
  private void undo(Reward reward) {
    tokenStore.delete(reward);
    budget.release(reward);
  }
}
