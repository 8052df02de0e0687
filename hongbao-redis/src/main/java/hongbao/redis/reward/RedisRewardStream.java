package hongbao.redis.reward;

import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardProducer;
import hongbao.redis.RedisLink;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * One reward topic on a Redis stream, the producer side: XADD, acknowledged by Redis at once (with
 * AOF on, durable within its fsync window). The consumer group {@value #GROUP} is created with the
 * stream, so entries added before any consumer starts are not missed. The stream is one key (its
 * topic is its hash tag), so every command names one slot and runs unchanged on a cluster, where
 * the link routes it to the master that owns the topic. Thread-safe; the link stays the caller's.
 */
public final class RedisRewardStream implements RewardProducer {

  public static final String GROUP = "rewards";

  private final String topic;
  private final String stream;
  private final RedisLink redis;
  private final Duration timeout;

  public RedisRewardStream(RedisLink redis, RewardKeys keys, String topic, Duration timeout) {
    this.topic = topic;
    this.stream = keys.stream(topic);
    this.redis = redis;
    this.timeout = timeout;
    createGroup(redis, stream);
  }

  static void createGroup(RedisLink redis, String stream) {
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
}
