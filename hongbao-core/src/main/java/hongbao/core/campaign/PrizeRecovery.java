package hongbao.core.campaign;

import hongbao.core.reward.RewardRecord;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Rebuilds a campaign's prize pools after Redis lost them, from the reward book — the truth about
 * what was issued, the way packets are rebuilt from the ledger.
 *
 * <p>Arming writes every slot Redis does not hold, in full and closed to taps; then every reward of
 * the campaign the book holds (tradeNo {@code <campaign>_<round>_<user>_<n>}) that no slot records
 * is put back: its prize is taken out of a sub-pool of its round again (the user's home first, then
 * the next ones, always in the same order, so two instances restoring at once take it once) and the
 * win recorded; then each user's win counter and last win number are raised to what the recorded
 * wins show; then the slots open. A tap that finds a slot closed restores first and taps again.
 *
 * <p><b>What wins are issued against.</b> Before the slots, the campaign's prize types and budget
 * are set up again ({@code issuing}; what exists is left as it is): a Redis that lost the slots
 * lost them too, and a win drawn from the rebuilt pools must find them when it is issued.
 *
 * <p><b>The bound.</b> A win is in the book once the reward pipeline consumed it, a moment after
 * the tap. Wins Redis lost before that (its reward still queued, or lost with Redis too) are not
 * known here: their prizes are offered again and their users may win that many more. A prize put
 * back when every sub-pool of its line is dry (a prize won again between the loss and a restore, on
 * a restart that kept an older state) cannot be taken again: it is logged, and the audit reports
 * the reward as not recorded in the pools.
 */
public final class PrizeRecovery {

  private static final System.Logger LOG = System.getLogger(PrizeRecovery.class.getName());

  private final PrizePools pools;
  private final IssuedWins book;
  private final Consumer<Campaign> issuing;
  private final LongSupplier nonces;

  /**
   * Restores on an instance go one at a time. A lock, not {@code synchronized}: the taps waiting
   * for a restore run on virtual threads, which a monitor pins to their carriers before JDK 24, so
   * a restore could stall every request of the instance served on one.
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** Port: every reward of a campaign the reward book holds ({@code RewardBook#byCampaign}). */
  @FunctionalInterface
  public interface IssuedWins {
    List<RewardRecord> of(String campaignId);
  }

  /**
   * @param issuing sets up a campaign's prize types and budget, idempotently ({@link
   *     CampaignService#issuing})
   * @param nonces distinct values per arming (the root seeds them)
   */
  public PrizeRecovery(
      PrizePools pools, IssuedWins book, Consumer<Campaign> issuing, LongSupplier nonces) {
    this.pools = pools;
    this.book = book;
    this.issuing = issuing;
    this.nonces = nonces;
  }

  /** Runs {@code action} while no restore of this instance can start (a test holds them back). */
  public void holdingRestores(Runnable action) {
    lock.lock();
    try {
      action.run();
    } finally {
      lock.unlock();
    }
  }

  /** Restores the pools unless every slot is open; returns how many wins were put back. */
  public int restoreIfLost(Campaign campaign) {
    lock.lock();
    try {
      return pools.open(campaign) ? 0 : restore(campaign, false);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Arms what is missing, puts back every win of the book the pools do not record, raises the
   * counters, opens the slots this call found closed. Idempotent: the slots already open are only
   * read, and a win is put back once.
   *
   * @return how many wins were put back
   */
  public int restore(Campaign campaign) {
    return restoreLocked(campaign, false);
  }

  /**
   * After Redis restarted: its state may be older than what it acknowledged, with every slot still
   * open (wins lost, their prizes back in the sub-pools, counters lower). Closes the slots first,
   * then restores as {@link #restore(Campaign)} does. Taps between the restart and this call (the
   * repair looks every sweep interval) may have taken such a prize again: the bound.
   *
   * @return how many wins were put back
   */
  public int restoreAfterRestart(Campaign campaign) {
    return restoreLocked(campaign, true);
  }

  private int restoreLocked(Campaign campaign, boolean close) {
    lock.lock();
    try {
      return restore(campaign, close);
    } finally {
      lock.unlock();
    }
  }

  private int restore(Campaign campaign, boolean close) {
    issuing.accept(campaign);
    String nonce = Long.toString(nonces.getAsLong(), 36);
    if (close) {
      pools.close(campaign, nonce);
    }
    List<String> markers = pools.arm(campaign, nonce);
    int restored = 0;
    if (markers.stream().anyMatch(m -> !PrizePools.OPEN.equals(m))) {
      // The book first: a win is recorded in its slot before it is issued, so every reward read
      // here is in the slots read next unless Redis lost it (read the other way round, a win
      // recorded and issued in between would look lost and take a second prize).
      List<RewardRecord> issued = book.of(campaign.id());
      Map<String, PrizePools.Win> recorded = new HashMap<>(pools.wins(campaign));
      for (RewardRecord reward : issued) {
        String tradeNo = reward.reward().tradeNo();
        if (!recorded.containsKey(tradeNo) && putBack(campaign, reward, recorded)) {
          restored++;
        }
      }
      raiseCounts(campaign, recorded);
    }
    if (!pools.seal(campaign, markers)) {
      LOG.log(
          Level.WARNING, "campaign " + campaign.id() + ": a slot was lost again while restored");
    }
    if (restored > 0) {
      LOG.log(
          Level.WARNING,
          "campaign " + campaign.id() + ": put back " + restored + " wins Redis had lost");
    }
    return restored;
  }

  /** Puts one reward back into a sub-pool of its round; records it in {@code recorded}. */
  private boolean putBack(
      Campaign campaign, RewardRecord reward, Map<String, PrizePools.Win> recorded) {
    String tradeNo = reward.reward().tradeNo();
    Optional<Round> round = roundOf(campaign, tradeNo);
    if (round.isEmpty()) {
      return false; // not a rain win: another sender's reward in the campaign's escrow
    }
    List<Integer> lines = new ArrayList<>();
    List<PrizeLine> prizes = round.get().prizes();
    for (int line = 0; line < prizes.size(); line++) {
      if (prizes.get(line).type().equals(reward.reward().type())
          && prizes.get(line).amount() == reward.amount().fen()) {
        lines.add(line);
      }
    }
    if (lines.isEmpty()) {
      return false;
    }
    String userId = reward.reward().userId();
    int pools = round.get().subPools();
    int start = SubPools.home(userId, campaign.homePools()) % pools;
    for (int i = 0; i < pools; i++) {
      var found =
          this.pools.restore(campaign, round.get(), (start + i) % pools, tradeNo, userId, lines);
      if (found != PrizePools.Restored.DRY) {
        recorded.put(tradeNo, new PrizePools.Win(round.get().number(), lines.getFirst(), userId));
        return found == PrizePools.Restored.TAKEN;
      }
    }
    LOG.log(
        Level.ERROR,
        "campaign "
            + campaign.id()
            + ": the issued win "
            + tradeNo
            + " cannot be put back, its prize line is empty (won again while Redis had lost it)");
    return false;
  }

  /**
   * The round a win's tradeNo of this campaign names, if it is one. Only the whole form of a win
   * ({@link TradeNos#rainOf}) names a round: another sender's reward in the campaign may use a
   * tradeNo that merely starts like one ({@code <campaignId>_1_bonus}, which the reward route lets
   * through), and it is no win to put back, count or check in the pools.
   */
  static Optional<Round> roundOf(Campaign campaign, String tradeNo) {
    if (!TradeNos.rainOf(tradeNo).equals(Optional.of(campaign.id()))) {
      return Optional.empty();
    }
    String prefix = campaign.id() + "_";
    int end = tradeNo.indexOf('_', prefix.length());
    if (end < 0) {
      return Optional.empty();
    }
    try {
      int number = Integer.parseInt(tradeNo.substring(prefix.length(), end));
      return number >= 1 && number <= campaign.rounds().size()
          ? Optional.of(campaign.round(number))
          : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** The win number n of a tradeNo {@code ..._<n>}. */
  static long seqOf(String tradeNo) {
    return Long.parseLong(tradeNo.substring(tradeNo.lastIndexOf('_') + 1));
  }

  private void raiseCounts(Campaign campaign, Map<String, PrizePools.Win> recorded) {
    Map<String, long[]> perUser = new HashMap<>();
    recorded.forEach(
        (tradeNo, win) -> {
          long[] counts = perUser.computeIfAbsent(win.userId(), u -> new long[2]);
          counts[0]++;
          counts[1] = Math.max(counts[1], seqOf(tradeNo));
        });
    perUser.forEach((user, counts) -> pools.raiseCounts(campaign, user, counts[0], counts[1]));
  }
}
