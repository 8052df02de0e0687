package hongbao.redis.payout;

import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;

/**
 * Every payout queue test again on a cluster of three masters: the shards' streams lie in different
 * slots on different masters, so each poll reads slot by slot.
 */
class ClusterRedisPayoutQueueTest extends RedisPayoutQueueTest {

  @Override
  RedisLink redis() {
    return TestRedis.cluster();
  }
}
