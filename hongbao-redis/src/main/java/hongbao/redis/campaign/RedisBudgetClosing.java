package hongbao.redis.campaign;

import hongbao.core.Invariants;
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
    String layout = redis.sync().hget(keys.campaigns(), campaignId);
    Invariants.check(layout != null, "campaign %s has no budget keys to close", campaignId);
    int count = Integer.parseInt(layout.split("\\|")[1]);
    long reserved = 0;
    for (int k = 0; k < count; k++) {
      Long used =
          CLOSE.run(redis, ScriptOutputType.INTEGER, new String[] {keys.budget(campaignId, k)});
      Invariants.check(used >= 0, "budget key %d of %s was never opened", k, campaignId);
      reserved += used;
    }
    return Amount.fen(reserved);
  }
}
