package hongbao.redis;

import hongbao.core.grab.GrabStore;
import hongbao.core.payout.PayoutQueue;
import hongbao.redis.grab.RedisGrabStore;
import hongbao.redis.payout.RedisPayoutQueue;
import hongbao.testkit.GrabStoreContract;
import hongbao.testkit.PayoutQueueContract;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;

/**
 * The Redis adapters held to the same contracts as the simulator's in-memory ports: what the
 * simulator proves over those ports holds over these.
 */
class RedisContractsTest {

  /** Redis ages keys out by its own clock: the contracts' packets live around now. */
  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  /** Fresh keys per test; the queue's connections closed and the keys deleted after. */
  abstract static class Ports {
    final RedisLink redis = TestRedis.link();
    final RedisKeys keys = TestRedis.freshKeys(4);
    final RedisGrabStore store = new RedisGrabStore(redis, keys, Duration.ofDays(1));
    final RedisPayoutQueue queue = new RedisPayoutQueue(redis, keys);

    void cleanUp() {
      queue.close();
      TestRedis.deleteAll(redis, keys);
    }
  }

  @Nested
  class GrabStoreTest extends GrabStoreContract {
    final Ports ports = new Ports() {};

    @AfterEach
    void cleanUp() {
      ports.cleanUp();
    }

    @Override
    protected GrabStore store() {
      return ports.store;
    }

    @Override
    protected PayoutQueue queue() {
      return ports.queue;
    }

    @Override
    protected Instant start() {
      return NOW;
    }

    @Override
    protected long newPacketId() {
      return TestRedis.newPacketId();
    }
  }

  @Nested
  class PayoutQueueTest extends PayoutQueueContract {
    final Ports ports = new Ports() {};

    @AfterEach
    void cleanUp() {
      ports.cleanUp();
    }

    @Override
    protected GrabStore store() {
      return ports.store;
    }

    @Override
    protected PayoutQueue queue() {
      return ports.queue;
    }

    @Override
    protected Instant start() {
      return NOW;
    }

    @Override
    protected long newPacketId() {
      return TestRedis.newPacketId();
    }
  }
}
