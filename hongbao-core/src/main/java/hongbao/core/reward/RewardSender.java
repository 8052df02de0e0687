package hongbao.core.reward;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.lang.System.Logger.Level;
import java.time.Clock;

/**
 * SendBonus: validates a reward request, claims its tradeNo for its campaign (a tradeNo another
 * campaign holds is a conflict), reserves its cost in the campaign's budget (recording the trade,
 * so a replayed tradeNo answers its first token), keeps the server's copy of the encrypted token,
 * and puts the event on the virtual queue of its type. Synchronous mode credits it instead and
 * releases the budget, and the claim, if the issuer refuses.
 */
public final class RewardSender {

  private static final System.Logger LOG = System.getLogger(RewardSender.class.getName());

  private final RewardTypes types;
  private final RewardTokens tokens;
  private final RewardBudget budget;
  private final TradeClaims claims;
  private final TokenStore tokenStore;
  private final RewardQueues queues;
  private final RewardService service;
  private final RewardBook book;
  private final Switches switches;
  private final Clock clock;

  public RewardSender(
      RewardTypes types,
      RewardTokens tokens,
      RewardBudget budget,
      TradeClaims claims,
      TokenStore tokenStore,
      RewardQueues queues,
      RewardService service,
      RewardBook book,
      Switches switches,
      Clock clock) {
    this.types = types;
    this.tokens = tokens;
    this.budget = budget;
    this.claims = claims;
    this.tokenStore = tokenStore;
    this.queues = queues;
    this.service = service;
    this.book = book;
    this.switches = switches;
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
    boolean disabled = sync && !switches.enabled(Switch.REWARDS);
    TradeClaims.Claim claim = claims.claim(reward.tradeNo(), reward.campaignId());
    if (claim == TradeClaims.Claim.OTHER) {
      throw new RejectedException(
          Rejection.IDEMPOTENCY_CONFLICT, "this tradeNo was used in another campaign");
    }
    var accepting = new Accepting(reward, claim == TradeClaims.Claim.CLAIMED);
    switch (budget.reserve(reward, cost, token, sync)) {
      case RewardBudget.Reservation.Reserved reserved -> {
        if (!accepting.claimedNow()) {
          holdClaim(accepting);
        }
      }
      case RewardBudget.Reservation.Replay replay -> {
        return replayed(reward, replay.token());
      }
      case RewardBudget.Reservation.SyncReplay replay -> {
        return replayedSync(reward, replay.token());
      }
      case RewardBudget.Reservation.Conflict conflict ->
          throw new RejectedException(
              Rejection.IDEMPOTENCY_CONFLICT, "this tradeNo was used with a different request");
      case RewardBudget.Reservation.Insufficient insufficient -> {
        unclaim(accepting);
        if (disabled) {
          throw switchedOff();
        }
        throw new RejectedException(
            Rejection.INSUFFICIENT_FUNDS,
            "the campaign's budget has " + insufficient.left() + " left");
      }
      case RewardBudget.Reservation.UnknownCampaign unknown -> {
        unclaim(accepting);
        if (disabled) {
          throw switchedOff();
        }
        throw new RejectedException(
            Rejection.NOT_FOUND, "no campaign " + reward.campaignId() + " with a budget");
      }
    }
    if (disabled) {
      unclaim(accepting);
      budget.release(reward);
      throw switchedOff();
    }
    keepCopy(reward, token);
    return sync ? creditNow(accepting, type, token) : enqueue(accepting, type, token);
  }

  /** A send being accepted, and whether it made its tradeNo's claim (and so may give it up). */
  private record Accepting(Reward reward, boolean claimedNow) {}

  /**
   * A reservation made under a claim this send found rather than made: the send that made it may
   * have been failing meanwhile, and given the claim up (it does so before releasing its own
   * reservation, so this one may be the newer). The claim is taken again; should another campaign
   * have taken the tradeNo in between, this reservation goes and the send is a conflict.
   */
  private void holdClaim(Accepting accepting) {
    Reward reward = accepting.reward();
    if (claims.claim(reward.tradeNo(), reward.campaignId()) == TradeClaims.Claim.OTHER) {
      budget.release(reward);
      throw new RejectedException(
          Rejection.IDEMPOTENCY_CONFLICT, "this tradeNo was used in another campaign");
    }
  }

  private void unclaim(Accepting accepting) {
    if (accepting.claimedNow()) {
      claims.release(accepting.reward().tradeNo(), accepting.reward().campaignId());
    }
  }

  private static RejectedException switchedOff() {
    return new RejectedException(Rejection.DISABLED, "issuing rewards is switched off");
  }

  /**
   * A replay of a synchronous send: credited if the book says so; otherwise the first send may
   * still be issuing, and undo its reservation if that fails, so ACCEPTED would be a promise
   * nothing keeps. The caller is told to try again; once the first send is settled, it is credited
   * (this answers so) or undone (the next try is a send of its own).
   */
  private SendOutcome replayedSync(Reward reward, String firstToken) {
    if (!credited(reward)) {
      throw new Unavailable(
          "reward",
          "the first request with tradeNo " + reward.tradeNo() + " is still being issued",
          null);
    }
    return new SendOutcome.Credited(reward.tradeNo(), firstToken);
  }

  private SendOutcome replayed(Reward reward, String firstToken) {
    return credited(reward)
        ? new SendOutcome.Credited(reward.tradeNo(), firstToken)
        : new SendOutcome.Accepted(reward.tradeNo(), firstToken);
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

  private SendOutcome enqueue(Accepting accepting, RewardType type, String token) {
    Reward reward = accepting.reward();
    try {
      queues.send(reward, type.queue(), 0);
    } catch (RewardQueues.QueuesFull full) {
      undo(accepting);
      throw full;
    }
    return new SendOutcome.Accepted(reward.tradeNo(), token);
  }

  private SendOutcome creditNow(Accepting accepting, RewardType type, String token) {
    Reward reward = accepting.reward();
    CreditOutcome outcome;
    try {
      outcome = service.credit(reward, type);
    } catch (RuntimeException e) {
      if (book.find(reward.tradeNo()).isPresent()) {
        throw e;
      }
      undo(accepting);
      return new SendOutcome.IssuerFailed(reward.tradeNo(), "the issuer is unavailable");
    }
    return switch (outcome) {
      case CreditOutcome.Credited credited -> new SendOutcome.Credited(reward.tradeNo(), token);
      case CreditOutcome.Refused refused -> {
        undo(accepting);
        yield new SendOutcome.IssuerFailed(reward.tradeNo(), refused.reason());
      }
      case CreditOutcome.Conflict conflict -> {
        // The reward book holds the tradeNo with another request (another campaign's, say): the
        // reservation just made must go, or a 409 would leave budget reserved for nothing.
        undo(accepting);
        throw new RejectedException(
            Rejection.IDEMPOTENCY_CONFLICT, "this tradeNo was used with a different request");
      }
    };
  }

  /**
   * Takes back a reservation this send made. The claim goes first and the reservation last: a retry
   * of the same request meets this reservation (a replay, told to try again) until it is gone, and
   * whatever it reserves after that it claims (or claims again) for itself, so neither the claim
   * nor the token copy of an accepted retry is removed here.
   */
  private void undo(Accepting accepting) {
    unclaim(accepting);
    tokenStore.delete(accepting.reward());
    budget.release(accepting.reward());
  }
}
