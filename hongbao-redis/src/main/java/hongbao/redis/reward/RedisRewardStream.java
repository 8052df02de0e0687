package hongbao.redis.reward;

import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardProducer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * One reward topic on a Redis stream, the producer side: XADD, acknowledged by Redis at once (with
 * AOF on, durable within its fsync window). The consumer group {@value #GROUP} is created with the
 * stream, so entries added before any consumer starts are not missed. Thread-safe.
 */
public final class RedisRewardStream implements RewardProducer, AutoCloseable {

  public static final String GROUP = "rewards";

  private final String topic;
  private final String stream;
  private final StatefulRedisConnection<String, String> redis;
  private final Duration timeout;

  public RedisRewardStream(RedisClient client, RewardKeys keys, String topic, Duration timeout) {
    this.topic = topic;
    this.stream = keys.stream(topic);
    this.redis = client.connect();
    this.timeout = timeout;
    redis.setTimeout(timeout);
    createGroup(redis, stream);
  }

  static void createGroup(StatefulRedisConnection<String, String> redis, String stream) {
    try {
      redis
          .sync()
          .xgroupCreate(StreamOffset.from(stream, "0"), GROUP, XGroupCreateArgs.Builder.mkstream());
    } catch (RedisCommandExecutionException e) {
      if (!String.valueOf(e.getMessage()).startsWith("BUSYGROUP")) {
        throw e;
      }
    }
  }

  public String stream() {
    return stream;
  }

  @Override
  public String name() {
    return "redis:" + topic;
  }

  @Override
  public CompletionStage<Void> send(Reward reward, int attempt) {
    return redis
        .async()
        .xadd(stream, RewardFields.of(reward, attempt))
        .toCompletableFuture()
        .orTimeout(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .thenApply(id -> null);
  }

  /** Entries not yet acknowledged (acknowledging deletes them): the topic's lag. */
  public long backlog() {
    return redis.sync().xlen(stream);
  }

  @Override
  public void close() {
    redis.close();
  }
}
