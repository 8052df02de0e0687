package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Port: the budget of each campaign as reserved by accepted rewards, spread over several keys so
 * that none is hot. A reservation also records the trade (tradeNo, request digest, cost, token)
 * atomically with the reservation, so a replayed tradeNo finds its first answer and never reserves
 * twice. However requests race, the reservations of a campaign never exceed its budget.
 */
public interface RewardBudget {

  /** Sets up a campaign's budget; opening it again with the same budget changes nothing. */
  default void open(String campaignId, Amount budget) {
    open(campaignId, budget, 1);
  }

  /**
   * Sets up version {@code version} of a campaign's budget: the first time, or again with the same
   * budget (nothing changes), or — for a newer version, which an edit of a scheduled rain makes —
   * resizes it, which is only allowed while nothing was reserved from it (an invariant: a rain
   * reserves only in its rounds, and an edit commits only before the first). An older version than
   * the one set up changes nothing (an instance arming a copy an edit replaced).
   */
  void open(String campaignId, Amount budget, int version);

  /** Reserves {@code cost} (zero for rewards not paid in cash) and records the trade. */
  default Reservation reserve(Reward reward, Amount cost, String token) {
    return reserve(reward, cost, token, false);
  }

  /**
   * As {@link #reserve(Reward, Amount, String)}; {@code sync} marks the trade as a synchronous
   * send's, which issues now and undoes the reservation if that fails: a replay then learns that it
   * cannot tell the caller ACCEPTED ({@link Reservation.SyncReplay}).
   */
  Reservation reserve(Reward reward, Amount cost, String token, boolean sync);

  /** Undoes a reservation (a synchronous issue failed); the tradeNo may be used again. */
  void release(Reward reward);

  /**
   * Undoes an asynchronous send's reservation (its claim failed) unless a replay found it first:
   * that replay may have queued the event, or be about to, and its credit needs the reservation.
   * Should the replay fail too, the reservation waits for the next retry to queue the event (the
   * reconciler names it meanwhile): held without cause, never spent without one. Once the
   * campaign's budget is closed ({@link hongbao.core.campaign.BudgetClosing}) it stays as well: the
   * closing counted it out of the return, so released, its cash would stay in the escrow with no
   * trade (for a rain's win, with nothing to name it); kept, a retry queues it, and the reconciler
   * names it meanwhile.
   *
   * @return false when the reservation stays
   */
  boolean releaseUnlessReplayed(Reward reward);

  /**
   * Marks an asynchronous trade whose send no queue took (every queue failed it while too many
   * events were held): its reservation stays, since a send that timed out may have landed, and the
   * campaign's closer sends it again unless the reward book has it ({@link Trade#unqueued}).
   */
  void markUnqueued(Reward reward);

  /**
   * Takes over a synchronous send's reservation accepted before {@code acceptedBefore}, as though
   * accepted {@code now}: of callers racing for one stopped send, exactly one is told true.
   */
  boolean takeOver(Reward reward, Instant acceptedBefore, Instant now);

  /**
   * Holds a campaign's budget still while an edit commits a new one: no key takes a reservation or
   * lends allowance until {@link #thaw} with the same {@code token} or the resize of {@link #open}
   * at a newer version. Past {@code until} a reservation is answered {@link
   * Reservation.LapsedFreeze} (whether the edit committed is for the books to say) and nothing is
   * lent until {@link #thawLapsed}. Nothing is left frozen unless the answer is {@link
   * Freeze#FROZEN}.
   */
  Freeze freeze(String campaignId, Instant until, String token);

  /** What {@link #freeze} found. */
  enum Freeze {
    /** Frozen (or never opened: nothing to hold). */
    FROZEN,
    /** Reserved from, or allowance moved between keys: a resize could not keep what it holds. */
    SPENT_FROM,
    /** Another edit holds the budget frozen. */
    EDIT_IN_PROGRESS
  }

  /** Lets go of what the freeze under {@code token} holds (the edit was not committed). */
  void thaw(String campaignId, String token);

  /** The freezes of the campaign that have ended, as each key holds them now. */
  Lapsed lapsed(String campaignId);

  /** Whether a key of the campaign holds a freeze that ended. */
  default boolean lapsedFreeze(String campaignId) {
    return !lapsed(campaignId).none();
  }

  /**
   * Lets go of the freezes {@code seen} (read before the books were), each only where a key still
   * holds it exactly: called once the books said its edit did not commit, or after {@link #open} at
   * the books' version (which lifts the freeze of an edit that did). A freeze renewed since, by an
   * edit that took its lock after that read, is another and stays.
   */
  void thawLapsed(String campaignId, Lapsed seen);

  /** What {@link #lapsed} saw: each key's ended freeze as it held it (null where none had). */
  record Lapsed(List<String> byKey) {

    public Lapsed {
      byKey = Collections.unmodifiableList(new ArrayList<>(byKey));
    }

    public boolean none() {
      return byKey.stream().allMatch(Objects::isNull);
    }
  }

  /** Where a campaign's budget stands, for metrics and the reconciler; null if never opened. */
  BudgetState state(String campaignId);

  /** Every recorded trade of a campaign by tradeNo, for the reconciler. */
  Map<String, Trade> trades(String campaignId);

  /**
   * The recorded trades of {@code tradeNos}, by tradeNo; a tradeNo without one is absent. What a
   * campaign's closer checks a page of wins or credits against: a rain may hold millions of trades,
   * more than an instance should read at once.
   */
  Map<String, Trade> trades(String campaignId, Collection<String> tradeNos);

  /** What a reservation found. */
  sealed interface Reservation {
    record Reserved() implements Reservation {}

    /** The tradeNo was reserved before with the same request: its first token. */
    record Replay(String token) implements Reservation {}

    /**
     * As {@link Replay}, by a synchronous send accepted at {@code acceptedAt}, which may still be
     * issuing and undo the reservation if that fails; or which issued it (the reward book says so);
     * or which stopped before it could do either.
     */
    record SyncReplay(String token, Instant acceptedAt) implements Reservation {}

    /** The tradeNo was reserved before with another request. */
    record Conflict() implements Reservation {}

    /** Not enough budget left, even after borrowing from the other keys. */
    record Insufficient(Amount left) implements Reservation {}

    /** The campaign's budget was never opened. */
    record UnknownCampaign() implements Reservation {}

    /**
     * An edit's freeze ended though neither its edit let it go nor a resize lifted it: the edit may
     * have committed and failed to arm, or died before its commit. Nothing was reserved. Also the
     * answer when the reservation's own key lacked room and a key it would borrow from was left
     * frozen so.
     */
    record LapsedFreeze() implements Reservation {}
  }

  /**
   * A campaign's budget: {@code budget} as opened, {@code reserved} summed over the keys, {@code
   * allowance} summed over the keys (less than the budget by what a crash lost between lending and
   * borrowing: never more), and whether allowance was ever lent from one key to another (which a
   * reservation does when its key runs dry, even one later released).
   */
  record BudgetState(Amount budget, Amount reserved, Amount allowance, boolean lent) {

    public Amount left() {
      return allowance.minus(reserved);
    }
  }

  /**
   * One accepted trade as the budget recorded it.
   *
   * @param unqueued its send found no queue to take it ({@link #markUnqueued}): the closer sends it
   *     again unless the reward book has it
   */
  record Trade(String digest, Amount cost, long acceptedAtMillis, boolean unqueued) {

    public Trade(String digest, Amount cost, long acceptedAtMillis) {
      this(digest, cost, acceptedAtMillis, false);
    }
  }
}
