package hongbao.redis.reward;

import hongbao.core.reward.ParkingLot;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;

/** Parked events in a stream per type, and a set of the types that have any. Thread-safe. */
public final class RedisParkingLot implements ParkingLot {

  private static final LuaScript LEASE = LuaScript.fromResource("unpark_lease.lua");

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
  public boolean leaseUnparking(String type, String owner, Duration lease) {
    Long held =
        LEASE.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.unparking(type)},
            owner,
            Long.toString(lease.toMillis()));
    return held == 1;
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
