package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.util.List;
import java.util.Optional;

/**
 * Port: the reward book in the database — one row per tradeNo (the global idempotency key) with its
 * status, campaign escrows funded from the system account, the built-in coupon book. Each method is
 * one transaction.
 */
public interface RewardBook {

  /**
   * Whether this is the reward book: false for a sender's stand-in that keeps no book (an SDK built
   * without crediting), whose {@link #find} knows nothing and so cannot tell "never credited" from
   * "credited elsewhere".
   */
  default boolean kept() {
    return true;
  }

  /**
   * Creates a campaign and moves its budget from the system account into its escrow, once.
   *
   * @return true if this call created it; false if it existed with the same budget
   * @throws hongbao.core.RejectedException IDEMPOTENCY_CONFLICT if it exists with another budget
   */
  boolean openCampaign(String campaignId, Amount budget);

  Optional<CampaignBooks> campaign(String campaignId);

  List<CampaignBooks> campaigns();

  /**
   * The campaigns whose escrow still holds money: those a budget can still be spent from. Reads no
   * transfer, unlike {@link #campaigns()}, whose sums grow with every reward ever credited.
   */
  List<String> fundedCampaigns();

  /**
   * Pays a CASH reward from the campaign's escrow into the user's wallet (transfer key {@code
   * reward:<tradeNo>}) and records it CREDITED, in one transaction.
   */
  Credit creditCash(Reward reward, String digest);

  /**
   * Pays many CASH rewards in one transaction, each as {@link #creditCash} would (distinct
   * tradeNos; at most {@link #CASH_BATCH_MAX}). Returns one answer per reward, in order.
   */
  List<Credit> creditCash(List<Reward> rewards);

  int CASH_BATCH_MAX = 1_000;

  /**
   * Records a coupon or item as CREDITED; with {@code couponBook} the coupon itself is written to
   * the service's own coupon book in the same transaction.
   */
  Credit recordIssued(Reward reward, String digest, RewardKind kind, boolean couponBook);

  /** Records a reward the issuer refused for good. */
  Credit recordFailed(Reward reward, String digest, RewardKind kind, String reason);

  Optional<RewardRecord> find(String tradeNo);

  /** A user's rewards, newest first, at most {@code limit}. */
  List<RewardRecord> byUser(String userId, int limit);

  /** Every reward of a campaign, however many, for the reconciler. */
  List<RewardRecord> byCampaign(String campaignId);

  /** A page of a campaign's rewards, as {@link RewardPages#page} says. */
  List<RewardRecord> byCampaign(String campaignId, String afterTradeNo, int limit);

  /** Problems the books themselves show: a credited CASH reward without exactly one transfer. */
  List<String> problems();

  /** What writing a reward row found. */
  enum Credit {
    /** This call issued it. */
    DONE,
    /** It was issued (or failed) before with the same request. */
    ALREADY,
    /** The tradeNo is in the book with another request. */
    CONFLICT,
    /**
     * Nothing written: the campaign's escrow holds less than the CASH reward. The budget reserved
     * it, so the budget's keys must have lost reservations (Redis restarted with an older state):
     * the reward fails, for an operator, and the books of the rest go on.
     */
    UNPAYABLE
  }

  /** A campaign's money: budget moved in, escrow left, cash credited, returned to the funder. */
  record CampaignBooks(
      String campaignId, Amount budget, Amount escrow, Amount credited, Amount returned) {}
}
