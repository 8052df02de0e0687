package hongbao.redis.reward;

import hongbao.core.reward.FailureLog;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardHandler;
import hongbao.core.reward.RewardHandler.Handling;
import hongbao.redis.RedisLink;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XPendingArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.models.stream.PendingMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One consumer of a reward stream in the group {@value RedisRewardStream#GROUP}: reads a batch with
 * XREADGROUP, handles its events concurrently, and acknowledges (XACK and XDEL) those that are
 * settled. Events left pending — a paused pipeline, a crash — are taken over by {@link
 * #reclaimOnce} once idle long enough (XCLAIM's min-idle guard keeps two reclaimers from taking one
 * entry); after {@code maxDeliveries} deliveries an event goes to the failure stream. Each command
 * names the one stream key, so a cluster routes it to the master that owns the topic's slot.
 */
public final class RedisRewardConsumer implements AutoCloseable {

  private final String stream;
  private final String consumer;
  private final RedisLink reader;
  private final RedisLink commands;
  private final RewardHandler handler;
  private final FailureLog failures;
  private final ExecutorService workers;
  private final Settings settings;

  /** How a consumer reads and reclaims. */
  public record Settings(int batch, Duration pollWait, Duration reclaimIdle, int maxDeliveries) {}

  public RedisRewardConsumer(
      RedisLink redis,
      RewardKeys keys,
      String topic,
      String consumer,
      RewardHandler handler,
      FailureLog failures,
      ExecutorService workers,
      Settings settings) {
    this.stream = keys.stream(topic);
    this.consumer = consumer;
    // The blocking read has a connection of its own, so it never holds up the other commands.
    this.reader = redis.another();
    this.commands = redis;
    this.handler = handler;
    this.failures = failures;
    this.workers = workers;
    this.settings = settings;
    RedisRewardStream.createGroup(commands, stream);
  }

  /** Reads and handles one batch; returns how many events were settled. */
  @SuppressWarnings("unchecked") // one stream offset through a generic varargs parameter
  public int consumeOnce() throws InterruptedException {
    List<StreamMessage<String, String>> batch =
        reader
            .sync()
            .xreadgroup(
                Consumer.from(RedisRewardStream.GROUP, consumer),
                XReadArgs.Builder.count(settings.batch()).block(settings.pollWait()),
                StreamOffset.lastConsumed(stream));
    return handle(batch);
  }

  /** Takes over entries other consumers left pending too long, and handles them. */
  public int reclaimOnce() throws InterruptedException {
    var args =
        new XPendingArgs<String>()
            .group(RedisRewardStream.GROUP)
            .idle(settings.reclaimIdle())
            .range(Range.unbounded())
            .limit(Limit.from(settings.batch()));
    List<PendingMessage> stale = commands.sync().xpending(stream, args);
    var claim = new ArrayList<String>();
    var dead = new ArrayList<String>();
    for (PendingMessage message : stale) {
      (message.getRedeliveryCount() > settings.maxDeliveries() ? dead : claim).add(message.getId());
    }
    List<StreamMessage<String, String>> claimed = new ArrayList<>();
    if (!claim.isEmpty() || !dead.isEmpty()) {
      var ids = new ArrayList<>(claim);
      ids.addAll(dead);
      claimed =
          commands
              .sync()
              .xclaim(
                  stream,
                  Consumer.from(RedisRewardStream.GROUP, consumer),
                  XClaimArgs.Builder.minIdleTime(settings.reclaimIdle()),
                  ids.toArray(String[]::new));
    }
    var live = new ArrayList<StreamMessage<String, String>>();
    for (StreamMessage<String, String> message : claimed) {
      if (message == null || message.getBody() == null || message.getBody().isEmpty()) {
        continue;
      }
      if (dead.contains(message.getId())) {
        failures.fail(
            RewardFields.reward(message.getBody()),
            "delivered more than " + settings.maxDeliveries() + " times");
        ack(List.of(message.getId()));
      } else {
        live.add(message);
      }
    }
    return handle(live);
  }

  private int handle(List<StreamMessage<String, String>> batch) throws InterruptedException {
    if (batch.isEmpty()) {
      return 0;
    }
    var futures = new ArrayList<Future<Handling>>(batch.size());
    for (StreamMessage<String, String> message : batch) {
      Reward reward = RewardFields.reward(message.getBody());
      int attempt = RewardFields.attempt(message.getBody());
      futures.add(workers.submit(() -> handler.handle(reward, attempt)));
    }
    var settled = new ArrayList<String>();
    RuntimeException failure = null;
    for (int i = 0; i < batch.size(); i++) {
      try {
        if (futures.get(i).get() != Handling.PAUSED) {
          settled.add(batch.get(i).getId());
        }
      } catch (ExecutionException e) {
        // Left pending: reclaimed and retried later. An invariant violation is rethrown below.
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        if (e.getCause() instanceof hongbao.core.Invariants.InvariantViolation bug) {
          throw bug;
        }
        failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
      }
    }
    ack(settled);
    if (failure != null) {
      throw failure;
    }
    return settled.size();
  }

  private void ack(List<String> ids) {
    if (ids.isEmpty()) {
      return;
    }
    String[] array = ids.toArray(String[]::new);
    commands.sync().xack(stream, RedisRewardStream.GROUP, array);
    commands.sync().xdel(stream, array);
  }

  @Override
  public void close() {
    reader.close();
  }
}
