package hongbao.redis.reward;

import hongbao.core.Unavailable;
import hongbao.core.reward.FailureLog;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardHandler;
import hongbao.core.reward.RewardHandler.Handling;
import hongbao.redis.RedisLink;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XPendingArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.models.stream.PendingMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One consumer of a reward topic's streams in the group {@value RedisRewardStream#GROUP}: reads a
 * batch with XREADGROUP, handles its events concurrently, and acknowledges (XACK and XDEL) those
 * that are settled. Events left pending — a paused pipeline, a crash — are taken over by {@link
 * #reclaimOnce} once idle long enough (XCLAIM's min-idle guard keeps two reclaimers from taking one
 * entry); after {@code maxDeliveries} deliveries an event goes to the failure stream. A delivery
 * whose handling met an outage ({@link Unavailable}: both queues down for a re-queue) is not
 * counted: the outage is waited out, never held against the event. A read names the streams of one
 * slot (one group of {@link RewardKeys#streams}), every other command one stream, so a cluster
 * routes each to the master that owns it.
 */
public final class RedisRewardConsumer implements AutoCloseable {

  /** Streams one XREADGROUP names at most (one slot's, on a cluster). */
  static final int STREAMS_PER_READ = 16;

  private final List<String> streams;
  private final List<List<String>> readGroups;
  private final String consumer;
  private final RedisLink reader;
  private final RedisLink commands;
  private final RewardHandler handler;
  private final FailureLog failures;
  private final ExecutorService workers;
  private final Settings settings;
  private int nextGroup;

  /** How a consumer reads and reclaims. */
  public record Settings(int batch, Duration pollWait, Duration reclaimIdle, int maxDeliveries) {}

  public RedisRewardConsumer(
      RedisLink redis,
      List<String> streams,
      String consumer,
      RewardHandler handler,
      FailureLog failures,
      ExecutorService workers,
      Settings settings) {
    this.streams = List.copyOf(streams);
    // On a cluster one read may name the streams of one slot only: read slot by slot, as the
    // payout reader does. On one server this is a single group, one read over every stream.
    this.readGroups = redis.groupsOf(this.streams, STREAMS_PER_READ);
    this.consumer = consumer;
    // The blocking read has a connection of its own, so it never holds up the other commands.
    this.reader = redis.another();
    this.commands = redis;
    this.handler = handler;
    this.failures = failures;
    this.workers = workers;
    this.settings = settings;
    this.streams.forEach(stream -> RedisRewardStream.createGroup(commands, stream));
  }

  /**
   * Reads and handles one batch from the next group of streams (one slot's on a cluster), blocking
   * for a share of the poll wait so that a pass over every group waits about {@code pollWait}.
   * Returns how many events were settled.
   */
  public int consumeOnce() throws InterruptedException {
    List<String> group = readGroups.get(Math.floorMod(nextGroup++, readGroups.size()));
    long blockMillis = Math.max(1, settings.pollWait().toMillis() / readGroups.size());
    List<StreamMessage<String, String>> batch;
    try {
      batch = read(group, blockMillis);
    } catch (RedisCommandExecutionException e) {
      if (!isNoGroup(e)) {
        throw e;
      }
      // Redis lost the streams with their group (restarted empty, or rolled back), and a send
      // since made a stream again without one: make the groups again, from the streams' start,
      // so that what was sent since the loss is read.
      group.forEach(stream -> RedisRewardStream.createGroup(commands, stream));
      batch = read(group, blockMillis);
    }
    return handle(batch, Map.of());
  }

  private List<StreamMessage<String, String>> read(List<String> group, long blockMillis) {
    return reader
        .sync()
        .xreadgroup(
            Consumer.from(RedisRewardStream.GROUP, consumer),
            XReadArgs.Builder.count(settings.batch()).block(blockMillis),
            lastConsumed(group));
  }

  private static boolean isNoGroup(RedisCommandExecutionException e) {
    return String.valueOf(e.getMessage()).startsWith("NOGROUP");
  }

  @SuppressWarnings("unchecked") // stream offsets through a generic varargs parameter
  private static StreamOffset<String>[] lastConsumed(List<String> streams) {
    return streams.stream().map(StreamOffset::lastConsumed).toArray(StreamOffset[]::new);
  }

  /**
   * Takes over entries other consumers left pending too long, and handles them. Every stream is
   * gone through even when one fails (an outage there); the first failure is thrown at the end.
   */
  public int reclaimOnce() throws InterruptedException {
    int settled = 0;
    RuntimeException failure = null;
    for (String stream : streams) {
      try {
        settled += reclaimOnce(stream);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return settled;
  }

  private int reclaimOnce(String stream) throws InterruptedException {
    var args =
        new XPendingArgs<String>()
            .group(RedisRewardStream.GROUP)
            .idle(settings.reclaimIdle())
            .range(Range.unbounded())
            .limit(Limit.from(settings.batch()));
    List<PendingMessage> stale;
    try {
      stale = commands.sync().xpending(stream, args);
    } catch (RedisCommandExecutionException e) {
      if (!isNoGroup(e)) {
        throw e;
      }
      // Lost with the stream (see consumeOnce): a group made again has nothing pending yet.
      RedisRewardStream.createGroup(commands, stream);
      return 0;
    }
    var claim = new ArrayList<String>();
    var dead = new ArrayList<String>();
    var deliveredBefore = new HashMap<String, Long>();
    for (PendingMessage message : stale) {
      (message.getRedeliveryCount() > settings.maxDeliveries() ? dead : claim).add(message.getId());
      deliveredBefore.put(message.getId(), message.getRedeliveryCount());
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
    var gone = new ArrayList<StreamMessage<String, String>>();
    for (StreamMessage<String, String> message : claimed) {
      if (message == null || message.getBody() == null || message.getBody().isEmpty()) {
        continue;
      }
      (dead.contains(message.getId()) ? gone : live).add(message);
    }
    try {
      for (StreamMessage<String, String> message : gone) {
        failures.fail(
            RewardFields.reward(message.getBody()),
            "delivered more than " + settings.maxDeliveries() + " times");
        ack(List.of(message));
      }
    } catch (RuntimeException e) {
      // The live entries were claimed above, a delivery counted, but are not handled now.
      uncount(live, deliveredBefore);
      throw e;
    }
    return handle(live, deliveredBefore);
  }

  /**
   * Handles a batch; {@code deliveredBefore} holds each reclaimed entry's delivery count before
   * this delivery (a first delivery is absent: none before).
   */
  private int handle(List<StreamMessage<String, String>> batch, Map<String, Long> deliveredBefore)
      throws InterruptedException {
    if (batch.isEmpty()) {
      return 0;
    }
    var futures = new ArrayList<Future<Handling>>(batch.size());
    for (StreamMessage<String, String> message : batch) {
      Reward reward = RewardFields.reward(message.getBody());
      int attempt = RewardFields.attempt(message.getBody());
      futures.add(workers.submit(() -> handler.handle(reward, attempt)));
    }
    var settled = new ArrayList<StreamMessage<String, String>>();
    // Deliveries that met a pause or an outage: not counted, so that no length or number of them
    // sends an event to the failure stream as "delivered too often".
    var uncounted = new ArrayList<StreamMessage<String, String>>();
    RuntimeException failure = null;
    long keepEveryNanos = keepEvery().toNanos();
    long keepAt = System.nanoTime() + keepEveryNanos;
    for (int i = 0; i < batch.size(); i++) {
      try {
        Handling handling;
        while (true) {
          try {
            handling =
                futures.get(i).get(Math.max(0, keepAt - System.nanoTime()), TimeUnit.NANOSECONDS);
            break;
          } catch (TimeoutException stillHandled) {
            keep(batch.subList(i, batch.size()), futures.subList(i, futures.size()));
            keepAt = System.nanoTime() + keepEveryNanos;
          }
        }
        (handling == Handling.PAUSED ? uncounted : settled).add(batch.get(i));
      } catch (ExecutionException e) {
        // Left pending: reclaimed and retried later. An invariant violation is rethrown below.
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        if (e.getCause() instanceof hongbao.core.Invariants.InvariantViolation bug) {
          throw bug;
        }
        if (e.getCause() instanceof Unavailable) {
          uncounted.add(batch.get(i));
        }
        failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
      }
    }
    ack(settled);
    uncount(uncounted, deliveredBefore);
    if (failure != null) {
      throw failure;
    }
    return settled.size();
  }

  /**
   * How often the events of a batch still in hand are claimed again: well inside the reclaim idle,
   * so that no reclaimer (this instance's or another's) takes an event its handler is still working
   * on. A batch can take long by design: a throttled type's events wait for their tokens (64 events
   * of a type allowed 1 per second take a minute), and failing ones are retried in place.
   */
  private Duration keepEvery() {
    return settings.reclaimIdle().dividedBy(3);
  }

  /**
   * Claims the unfinished events of a batch for this consumer again: XCLAIM with JUSTID resets an
   * entry's idle time without counting a delivery, so an event handled slowly is neither handed out
   * twice nor sent to the failure stream as "delivered too often".
   */
  private void keep(
      List<StreamMessage<String, String>> messages, List<Future<Handling>> handlings) {
    var byStream = new java.util.LinkedHashMap<String, List<String>>();
    for (int i = 0; i < messages.size(); i++) {
      if (!handlings.get(i).isDone()) {
        StreamMessage<String, String> message = messages.get(i);
        byStream.computeIfAbsent(message.getStream(), s -> new ArrayList<>()).add(message.getId());
      }
    }
    byStream.forEach(
        (stream, ids) ->
            commands
                .sync()
                .xclaim(
                    stream,
                    Consumer.from(RedisRewardStream.GROUP, consumer),
                    XClaimArgs.Builder.minIdleTime(0).justid(),
                    ids.toArray(String[]::new)));
  }

  /**
   * Takes back the delivery a pause or an outage met: XCLAIM with JUSTID and RETRYCOUNT sets each
   * entry's count back to what it was before (and resets its idle time, so it is reclaimed a
   * reclaim idle later). Only a consumer that stopped while holding an entry — a crash, a kill —
   * counts towards its failing.
   */
  private void uncount(
      List<StreamMessage<String, String>> messages, Map<String, Long> deliveredBefore) {
    var byCount = new java.util.LinkedHashMap<DeliveryCount, List<String>>();
    for (StreamMessage<String, String> message : messages) {
      var count =
          new DeliveryCount(message.getStream(), deliveredBefore.getOrDefault(message.getId(), 0L));
      byCount.computeIfAbsent(count, k -> new ArrayList<>()).add(message.getId());
    }
    byCount.forEach(
        (count, ids) ->
            commands
                .sync()
                .xclaim(
                    count.stream(),
                    Consumer.from(RedisRewardStream.GROUP, consumer),
                    XClaimArgs.Builder.minIdleTime(0).justid().retryCount(count.deliveries()),
                    ids.toArray(String[]::new)));
  }

  /** Entries of one stream to be set back to one delivery count. */
  private record DeliveryCount(String stream, long deliveries) {}

  /** XACK and XDEL, stream by stream: each command names one stream's key. */
  private void ack(List<StreamMessage<String, String>> messages) {
    var byStream = new java.util.LinkedHashMap<String, List<String>>();
    for (StreamMessage<String, String> message : messages) {
      byStream.computeIfAbsent(message.getStream(), s -> new ArrayList<>()).add(message.getId());
    }
    byStream.forEach(
        (stream, ids) -> {
          String[] array = ids.toArray(String[]::new);
          commands.sync().xack(stream, RedisRewardStream.GROUP, array);
          commands.sync().xdel(stream, array);
        });
  }

  @Override
  public void close() {
    reader.close();
  }
}
