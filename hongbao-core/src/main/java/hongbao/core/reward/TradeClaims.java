package hongbao.core.reward;

/**
 * Which campaign each tradeNo belongs to. The contract makes a tradeNo the global idempotency key,
 * but a campaign's budget records only its own trades: without this, a tradeNo already used in one
 * campaign would be accepted again in another (and refused only when credited). A send claims its
 * tradeNo for its campaign before it reserves anything; a claim another campaign holds is a
 * conflict. A claim stays for good once its campaign accepted the reward, like the trade itself; so
 * does one whose send failed on an outage after claiming (its retry finds it again). Lost with
 * Redis, claims leave the reward book's check at crediting as the last guard.
 */
public interface TradeClaims {

  /** What a claim found. */
  enum Claim {
    /** Claimed now for this campaign: nobody had. */
    CLAIMED,
    /** This campaign's already (a replay, or a send whose reservation is on its way). */
    HELD,
    /** Another campaign's: a conflict. */
    OTHER
  }

  Claim claim(String tradeNo, String campaignId);

  /**
   * Gives up a claim made now ({@link Claim#CLAIMED}) for a send its campaign did not accept, so
   * the tradeNo stays free (a typo in the campaign id does not bind it); only this campaign's claim
   * is removed.
   */
  void release(String tradeNo, String campaignId);
}
