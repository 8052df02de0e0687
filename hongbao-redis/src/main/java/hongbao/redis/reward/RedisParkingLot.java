package hongbao.redis.reward;

import hongbao.core.reward.ParkingLot;
import hongbao.redis.RedisLink;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import java.util.List;

/** Parked events in a stream per type, and a set of the types that have any. Thread-safe. */
public final class RedisParkingLot implements ParkingLot {

  private final RedisLink redis;
  private final RewardKeys keys;

  public RedisParkingLot(RedisLink redis, RewardKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public void park(hongbao.core.reward.Reward reward, int attempt) {
    redis.sync().sadd(keys.parkedTypes(), reward.type());
    redis.sync().xadd(keys.parked(reward.type()), RewardFields.of(reward, attempt));
  }

  @Override
  public List<Parked> peek(String type, int max) {
    return redis.sync().xrange(keys.parked(type), Range.unbounded(), Limit.from(max)).stream()
        .map(
            e ->
                new Parked(
                    e.getId(), RewardFields.reward(e.getBody()), RewardFields.attempt(e.getBody())))
        .toList();
  }

  @Override
  public void remove(String type, List<Parked> parked) {
    if (!parked.isEmpty()) {
      redis.sync().xdel(keys.parked(type), parked.stream().map(Parked::id).toArray(String[]::new));
    }
  }

  @Override
  public long size() {
    long total = 0;
    for (String type : redis.sync().smembers(keys.parkedTypes())) {
      total += redis.sync().xlen(keys.parked(type));
    }
    return total;
  }
}
