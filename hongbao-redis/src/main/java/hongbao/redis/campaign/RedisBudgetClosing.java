package hongbao.redis.campaign;

import hongbao.core.Unavailable;
import hongbao.core.campaign.BudgetClosing;
import hongbao.core.money.Amount;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import hongbao.redis.reward.RewardKeys;
import io.lettuce.core.ScriptOutputType;

/**
 * Closes a campaign's reward budget keys one by one ({@code budget_close.lua}) and sums what they
 * reserved. Each key is closed atomically, and a closed key reserves nothing more, so once every
 * key is closed the sum is final.
 */
public final class RedisBudgetClosing implements BudgetClosing {

  private static final LuaScript CLOSE = LuaScript.fromResource("budget_close.lua");

  private final RedisLink redis;
  private final RewardKeys keys;

  public RedisBudgetClosing(RedisLink redis, RewardKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public Amount close(String campaignId) {
    // The closer arms the campaign's budget just before: keys missing now were lost since (a
    // failover), an outage for the next pass, which arms them again.
    String layout = redis.sync().hget(keys.campaigns(), campaignId);
    if (layout == null) {
      throw new Unavailable("redis", "campaign " + campaignId + " lost its budget keys", null);
    }
    int count = Integer.parseInt(layout.split("\\|")[1]);
    long reserved = 0;
    for (int k = 0; k < count; k++) {
      Long used =
          CLOSE.run(redis, ScriptOutputType.INTEGER, new String[] {keys.budget(campaignId, k)});
      if (used < 0) {
        throw new Unavailable(
            "redis", "budget key " + k + " of campaign " + campaignId + " was lost", null);
      }
      reserved += used;
    }
    return Amount.fen(reserved);
  }
}
