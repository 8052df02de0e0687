package hongbao.core.campaign;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * Port: the rounds' prize pools, split into sub-pools in different hash slots (Redis). Each method
 * is one atomic script on one slot, or a read.
 */
public interface PrizePools {

  /**
   * Writes every round's sub-pools in every slot that has none, once: arming again changes nothing.
   * A slot armed now stays closed to taps (they answer {@link HomeReply.Lost}) until {@link #seal}
   * opens it, so that the wins Redis lost can be put back first ({@link PrizeRecovery}).
   *
   * @param nonce marks the slots this arming wrote
   * @return each slot's marker after arming, index = slot: {@link #OPEN}, or the closed mark of
   *     whichever arming wrote it
   */
  List<String> arm(Campaign campaign, String nonce);

  /**
   * Closes every open slot to taps (marking it with {@code nonce}) so that it can be restored; a
   * slot that is closed already or not armed is left as it is.
   */
  void close(Campaign campaign, String nonce);

  /** The marker of a slot open to taps. */
  String OPEN = "1";

  /**
   * Opens each slot whose marker is still the one given (a compare-and-set, so a slot lost and
   * re-armed meanwhile stays closed); returns whether every slot is open.
   */
  boolean seal(Campaign campaign, List<String> markers);

  /**
   * Deletes the pools of a version an edit replaced (its slots, sub-pools, counters and recorded
   * wins; the per-second counters expire by themselves). Only for a version whose first round never
   * started, so nothing in it was won.
   */
  void discard(Campaign version);

  /** Whether every slot of the campaign is armed and open to taps (one read per slot). */
  boolean open(Campaign campaign);

  /**
   * Puts back a win the reward book holds into sub-pool {@code pool} of its round: takes a prize of
   * the first of {@code lines} the sub-pool still has and records the win, unless the slot has it.
   */
  Restored restore(
      Campaign campaign, Round round, int pool, String tradeNo, String userId, List<Integer> lines);

  /** What putting a win back found. */
  enum Restored {
    TAKEN,
    /** The slot had the win recorded: nothing changed. */
    ALREADY,
    /** The sub-pool has none of the lines left. */
    DRY
  }

  /**
   * Raises the user's win counter and last win number in the home slot to at least {@code wins} and
   * {@code lastSeq}; never lowers them.
   */
  void raiseCounts(Campaign campaign, String userId, long wins, long lastSeq);

  /**
   * One tap in the user's home slot at {@code nowMillis}, atomically: refuse it when the user's
   * taps let through in the second before already reach {@code tapsPerUserPerSecond}, stop if no
   * round runs ({@code round} null), count it in the round's taps, check the user's wins against
   * {@code maxWinsPerUser}, and when {@code draw}: take a prize of the home sub-pool chosen by
   * {@code u} (in [0, 1)) weighted by what is left, or — when the home holds none — reserve a win
   * for the tail (see {@link TapService}).
   */
  HomeReply tap(
      Campaign campaign,
      Round round,
      String userId,
      String tradeNoPrefix,
      long nowMillis,
      boolean draw,
      double u);

  /**
   * {@link #tap} without blocking the caller: the stage completes with the reply, on the store's
   * thread, or fails as the blocking call would throw.
   */
  CompletionStage<HomeReply> tapAsync(
      Campaign campaign,
      Round round,
      String userId,
      String tradeNoPrefix,
      long nowMillis,
      boolean draw,
      double u);

  /**
   * Takes a prize from sub-pool {@code pool} for a reserved tail win, counting it in second {@code
   * nowSecond}; -1 when it is dry, {@link #LOST} when the slot is not open.
   */
  int drawAt(
      Campaign campaign,
      Round round,
      int pool,
      String tradeNo,
      String userId,
      long nowSecond,
      double u);

  /** What {@link #drawAt} answers when the slot is lost or being restored: nothing was taken. */
  int LOST = -2;

  /**
   * Gives back a tail reservation ({@code seq}, {@code tradeNo}) that found no prize, and its win
   * number if no later one was handed out to the user meanwhile; nothing when the home slot was
   * rebuilt since and no longer counts it.
   */
  void release(Campaign campaign, String userId, long seq, String tradeNo);

  /**
   * After a restore in the middle of a tail, before it draws again: makes sure the user's home slot
   * counts the reservation ({@code seq}, {@code tradeNo}), taking it again (count and win number)
   * when the slot was rebuilt without it, unless the user has {@code maxWinsPerUser} wins by then.
   */
  Rehold rehold(Campaign campaign, String userId, long seq, String tradeNo);

  /** What {@link #rehold} found. */
  enum Rehold {
    /** The slot counts the reservation: the tail may draw for it. */
    HELD,
    /** The slot lost it and the user has reached the limit since: nothing may be drawn. */
    LIMIT_REACHED,
    /** The slot lost it and its win number may have been handed out again: nothing may be drawn. */
    TAKEN,
    /** The slot is not open. */
    LOST
  }

  /**
   * A tail found the prize for its reservation ({@code seq}, {@code tradeNo}): makes sure the
   * user's home slot counts the win, counting it (and its win number) again when the slot was
   * rebuilt without the reservation while the tail ran.
   *
   * @return whether the slot still held the reservation
   */
  boolean settle(Campaign campaign, String userId, long seq, String tradeNo);

  /** The round's taps so far and what each prize line has left, summed over its sub-pools. */
  Pulse pulse(Campaign campaign, Round round);

  /**
   * The round's taps (those counted in the round) and wins in each of {@code seconds} seconds from
   * {@code fromSecond}, summed over every slot; the counters live 15 s.
   */
  List<Beat> beats(Campaign campaign, Round round, long fromSecond, int seconds);

  /**
   * The Redis generation after whose restart the pools were last repaired ({@link PoolRepair}),
   * kept in Redis itself so that every instance sees it; null when none is recorded.
   */
  String repairedGeneration();

  /** Records that the pools were repaired after the restart that began {@code generation}. */
  void markRepaired(String generation);

  /**
   * Hands every win the pools recorded to {@code each}, with its tradeNo, reading a page at a time:
   * a rain may record millions of wins, more than an instance should hold at once. A win recorded
   * meanwhile may be handed or not, and a win may be handed twice.
   */
  void forEachWin(Campaign campaign, BiConsumer<String, Win> each);

  /** Every win the pools recorded, by tradeNo, all at once (the audit and the restore). */
  default Map<String, Win> wins(Campaign campaign) {
    var wins = new HashMap<String, Win>();
    forEachWin(campaign, wins::put);
    return wins;
  }

  /** What the home script found. */
  sealed interface HomeReply {
    record RateLimited() implements HomeReply {}

    /** No round runs: the tap was only counted against the rate limit. */
    record Idle() implements HomeReply {}

    /**
     * The home slot is not open: Redis lost it, or it is being restored. Nothing was counted in the
     * round.
     */
    record Lost() implements HomeReply {}

    record LimitReached() implements HomeReply {}

    record Missed() implements HomeReply {}

    /** A prize of line {@code line} from the home sub-pool; the user's {@code seq}-th win. */
    record Won(int line, long seq) implements HomeReply {}

    /** The home was dry: a win is reserved under {@code seq}; the tail must find the prize. */
    record Reserved(long seq) implements HomeReply {}
  }

  /** A round's taps so far and what its prize lines have left. */
  record Pulse(long taps, List<Long> left) {
    public long leftTotal() {
      return left.stream().mapToLong(Long::longValue).sum();
    }
  }

  /** One second of a round: the taps and wins counted in it. */
  record Beat(long second, long taps, long wins) {}

  /** A recorded win: round number, prize line, user. */
  record Win(int round, int line, String userId) {}
}
