package hongbao.redis.reward;

import hongbao.core.reward.RewardType;
import hongbao.core.reward.TypeThrottle;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import io.lettuce.core.ScriptOutputType;
import java.time.Clock;

/**
 * The per-type token bucket shared by every instance, one Lua call per acquisition (see {@code
 * throttle.lua}). Time comes from the injected clock, so a test can drive the bucket. Thread-safe.
 */
public final class RedisTypeThrottle implements TypeThrottle {

  private static final LuaScript THROTTLE = LuaScript.fromResource("throttle.lua");

  private final RedisLink redis;
  private final RewardKeys keys;
  private final Clock clock;

  public RedisTypeThrottle(RedisLink redis, RewardKeys keys, Clock clock) {
    this.redis = redis;
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public long acquire(RewardType type, int permits) {
    long now = clock.millis();
    Long wait =
        THROTTLE.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.bucket(type.type()), keys.issuedIn(type.type(), now / 1000)},
            Long.toString(type.ratePerSecond()),
            Long.toString(type.burst()),
            Long.toString(now),
            Integer.toString(permits));
    return wait;
  }

  /**
   * Tokens of {@code type} taken in each of the last {@code seconds} whole seconds of this
   * throttle's clock (the current one excluded, it is still filling), by every instance; the
   * counters live 15 s.
   */
  public long[] issuedLast(String type, int seconds) {
    long current = clock.millis() / 1000;
    long[] issued = new long[seconds];
    for (int i = 0; i < seconds; i++) {
      String value = redis.sync().get(keys.issuedIn(type, current - seconds + i));
      issued[i] = value == null ? 0 : Long.parseLong(value);
    }
    return issued;
  }
}
