package hongbao.redis.reward;

import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;

/** The same on an embedded cluster of three masters. */
class ClusterRedisTradeClaimsTest extends RedisTradeClaimsTest {

  @Override
  RedisLink redis() {
    return TestRedis.cluster();
  }
}
