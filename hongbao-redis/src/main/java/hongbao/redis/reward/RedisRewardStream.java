package hongbao.redis.reward;

import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardProducer;
import hongbao.redis.RedisLink;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * One reward topic on a Redis stream, the producer side: XADD, acknowledged by Redis at once (with
 * AOF on, durable within its fsync window). The consumer group {@value #GROUP} is created with the
 * stream, so entries added before any consumer starts are not missed. Each stream is one key with a
 * hash tag of its own, so every command names one slot and runs unchanged on a cluster, where the
 * link routes it to the master that owns it. Thread-safe; the link stays the caller's.
 */
public final class RedisRewardStream implements RewardProducer {

  public static final String GROUP = "rewards";

  private final String topic;
  private final List<String> streams;
  private final RedisLink redis;
  private final Duration timeout;

  /** A topic on one stream. */
  public RedisRewardStream(RedisLink redis, RewardKeys keys, String topic, Duration timeout) {
    this(redis, keys, topic, 1, timeout);
  }

  /**
   * A topic split over {@code streams} streams: an event goes to the one its tradeNo hashes to, so
   * one hot key does not bound the topic, and a cluster spreads the streams over its masters.
   */
  public RedisRewardStream(
      RedisLink redis, RewardKeys keys, String topic, int streams, Duration timeout) {
    this.topic = topic;
    this.streams = keys.streams(topic, streams);
    this.redis = redis;
    this.timeout = timeout;
    this.streams.forEach(stream -> createGroup(redis, stream));
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

  /** The topic's stream keys. */
  public List<String> streams() {
    return streams;
  }

  @Override
  public String name() {
    return "redis:" + topic;
  }

  @Override
  public CompletionStage<Void> send(Reward reward, int attempt) {
    return redis
        .async()
        .xadd(
            streams.get(Math.floorMod(reward.tradeNo().hashCode(), streams.size())),
            RewardFields.of(reward, attempt))
        .toCompletableFuture()
        .orTimeout(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .thenApply(id -> null);
  }

  /** Entries not yet acknowledged (acknowledging deletes them): the topic's lag. */
  public long backlog() {
    long backlog = 0;
    for (String stream : streams) {
      backlog += redis.sync().xlen(stream);
    }
    return backlog;
  }
}
