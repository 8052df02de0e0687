package hongbao.redis.reward;

import hongbao.core.Invariants;
import hongbao.core.reward.TradeClaims;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import io.lettuce.core.ScriptOutputType;
import java.util.Optional;

/**
 * Claims of tradeNos in {@value #BUCKETS} hashes ({@code trade_claim.lua}), a tradeNo in the one
 * its hash picks: few keys, spread over a cluster's slots, each field about the size of the tradeNo
 * and the campaign id. Thread-safe.
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

  @Override
  public Claim claim(String tradeNo, String campaignId) {
    String reply =
        CLAIM.run(
            redis, ScriptOutputType.VALUE, new String[] {bucketOf(tradeNo)}, tradeNo, campaignId);
    return switch (reply) {
      case "CLAIMED" -> Claim.CLAIMED;
      case "HELD" -> Claim.HELD;
      case "OTHER" -> Claim.OTHER;
      default -> throw new Invariants.InvariantViolation("trade_claim.lua replied " + reply);
    };
  }

  @Override
  public Optional<String> holder(String tradeNo) {
    return Optional.ofNullable(redis.sync().hget(bucketOf(tradeNo), tradeNo));
  }

  private String bucketOf(String tradeNo) {
    return keys.tradeClaims(Math.floorMod(tradeNo.hashCode(), BUCKETS));
  }
}
