package hongbao.redis.reward;

import hongbao.core.reward.Reward;
import hongbao.core.reward.TokenStore;
import hongbao.redis.RedisLink;
import java.util.ArrayList;
import java.util.List;

/**
 * Token copies in a hash per (user, campaign), field tradeNo, value the token, plus a set of the
 * user's campaigns so a statement finds them all. Both keys carry the user's tag. Thread-safe.
 */
public final class RedisTokenStore implements TokenStore {

  private final RedisLink redis;
  private final RewardKeys keys;

  public RedisTokenStore(RedisLink redis, RewardKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public void save(Reward reward, String token) {
    redis.refuseBlocking("saving a reward token");
    var async = redis.async();
    var set =
        async.hset(keys.tokens(reward.userId(), reward.campaignId()), reward.tradeNo(), token);
    var index = async.sadd(keys.tokenCampaigns(reward.userId()), reward.campaignId());
    set.toCompletableFuture().join();
    index.toCompletableFuture().join();
  }

  @Override
  public boolean holds(Reward reward) {
    return redis
        .sync()
        .hexists(keys.tokens(reward.userId(), reward.campaignId()), reward.tradeNo());
  }

  @Override
  public void delete(Reward reward) {
    redis.sync().hdel(keys.tokens(reward.userId(), reward.campaignId()), reward.tradeNo());
  }

  @Override
  public List<String> pending(String userId, int max) {
    var tokens = new ArrayList<String>();
    for (String campaign : redis.sync().smembers(keys.tokenCampaigns(userId))) {
      for (String token : redis.sync().hvals(keys.tokens(userId, campaign))) {
        if (tokens.size() >= max) {
          return tokens;
        }
        tokens.add(token);
      }
    }
    return tokens;
  }
}
