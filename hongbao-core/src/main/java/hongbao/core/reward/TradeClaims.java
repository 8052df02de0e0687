package hongbao.core.reward;

import java.util.Optional;

/**
 * Which campaign each tradeNo belongs to. The contract makes a tradeNo the global idempotency key,
 * but a campaign's budget records only its own trades: without this, a tradeNo already used in one
 * campaign would be accepted again in another (and refused only when credited). A send that has
 * reserved its cost claims its tradeNo for its campaign; a claim another campaign holds is a
 * conflict, and that send takes its reservation back.
 *
 * <p>Of campaigns racing for one tradeNo, the first to claim it holds it. A claim is never given
 * up: a tradeNo names one request, so once a campaign claimed it, another campaign's request of it
 * is a different request (409) even if the first then failed (a synchronous 502); so is another
 * body in the same campaign, which the claim tells by the request's digest (the reservation that
 * tells it otherwise is gone once a failed synchronous send is undone). That also keeps the claim
 * of a retry that reserved while an earlier send of it was being undone. A send refused (unknown
 * campaign, spent budget, issuing switched off) claims nothing, but answers 409 first if another
 * campaign, or another request, holds the tradeNo ({@link #conflictOf}). A send that stops between
 * reserving and claiming leaves its trade unclaimed until a replay claims it; lost with Redis,
 * claims leave the reward book's check at crediting as the last guard.
 */
public interface TradeClaims {

  /** What a claim found. */
  enum Claim {
    /** Claimed now for this campaign: nobody had. */
    CLAIMED,
    /** This campaign's already (a replay, or a retry of a request). */
    HELD,
    /** Another campaign's: a conflict. */
    OTHER,
    /** This campaign's, claimed by a request with another body: a conflict. */
    ANOTHER_REQUEST
  }

  /**
   * Claims {@code tradeNo} for the request of {@code digest} in {@code campaignId}; a digest the
   * claim keeps must match. The digest is kept only when {@code keepDigest}: a synchronous send
   * keeps it, since its trade record goes when it is undone; a queued send's trade record stays and
   * tells another body apart, so it writes no more than a claim did before. A claim without a
   * digest (a queued send's, or one made before digests were kept) takes the next kept one.
   */
  Claim claim(String tradeNo, String campaignId, String digest, boolean keepDigest);

  /**
   * What a claim of {@code tradeNo} by this request would find, claiming nothing: {@link
   * Claim#OTHER} or {@link Claim#ANOTHER_REQUEST} when it would conflict, else empty.
   */
  Optional<Claim> conflictOf(String tradeNo, String campaignId, String digest);
}
