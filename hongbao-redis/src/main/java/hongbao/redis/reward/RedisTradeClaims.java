package hongbao.redis.reward;

import hongbao.core.Invariants;
import hongbao.core.reward.TradeClaims;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import io.lettuce.core.ScriptOutputType;
import java.util.Optional;

/**
 * Claims of tradeNos in {@value #BUCKETS} hashes ({@code trade_claim.lua}), a tradeNo in the one
 * its hash picks: few keys, spread over a cluster's slots, each field about the size of the
 * tradeNo, the campaign id and {@value #DIGEST_KEPT} characters of the request's digest.
 * Thread-safe.
 */
public final class RedisTradeClaims implements TradeClaims {

  static final int BUCKETS = 1_024;

  private static final LuaScript CLAIM = LuaScript.fromResource("trade_claim.lua");

  private final RedisLink redis;
  private final RewardKeys keys;

  public RedisTradeClaims(RedisLink redis, RewardKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  /** How much of a request's digest a claim keeps: enough to tell two bodies apart. */
  static final int DIGEST_KEPT = 16;

  @Override
  public Claim claim(String tradeNo, String campaignId, String digest, boolean keepDigest) {
    int bucket = bucketNumber(tradeNo);
    String reply =
        CLAIM.run(
            redis,
            ScriptOutputType.VALUE,
            new String[] {keys.tradeClaims(bucket), keys.tradeClaimDigests(bucket)},
            tradeNo,
            campaignId,
            kept(digest),
            keepDigest ? "keep" : "");
    return switch (reply) {
      case "CLAIMED" -> Claim.CLAIMED;
      case "HELD" -> Claim.HELD;
      case "OTHER" -> Claim.OTHER;
      case "ANOTHER" -> Claim.ANOTHER_REQUEST;
      default -> throw new Invariants.InvariantViolation("trade_claim.lua replied " + reply);
    };
  }

  @Override
  public Optional<Claim> conflictOf(String tradeNo, String campaignId, String digest) {
    int bucket = bucketNumber(tradeNo);
    String held = redis.sync().hget(keys.tradeClaims(bucket), tradeNo);
    if (held == null) {
      return Optional.empty();
    }
    if (!held.equals(campaignId)) {
      return Optional.of(Claim.OTHER);
    }
    String heldDigest = redis.sync().hget(keys.tradeClaimDigests(bucket), tradeNo);
    return heldDigest != null && !heldDigest.equals(kept(digest))
        ? Optional.of(Claim.ANOTHER_REQUEST)
        : Optional.empty();
  }

  private static String kept(String digest) {
    return digest.substring(0, Math.min(DIGEST_KEPT, digest.length()));
  }

  private static int bucketNumber(String tradeNo) {
    return Math.floorMod(tradeNo.hashCode(), BUCKETS);
  }

  String bucketOf(String tradeNo) {
    return keys.tradeClaims(bucketNumber(tradeNo));
  }
}
