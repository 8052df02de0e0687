package hongbao.redis.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.reward.ConsumeRate;
import hongbao.core.reward.FailoverQueue;
import hongbao.core.reward.Issuer;
import hongbao.core.reward.ParkingLot;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBook;
import hongbao.core.reward.RewardHandler;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardMetrics;
import hongbao.core.reward.RewardProducer;
import hongbao.core.reward.RewardQueues;
import hongbao.core.reward.RewardService;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.RewardTypes;
import hongbao.core.reward.TokenStore;
import hongbao.core.reward.VirtualQueue;
import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import hongbao.testkit.MemorySwitches;
import io.lettuce.core.XPendingArgs;
import io.lettuce.core.models.stream.PendingMessage;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An event on a Redis reward stream whose issuer is down is re-queued; with both of its queue's
 * topics down too, the re-queue cannot be handed over, so the entry stays pending and is reclaimed
 * again and again. Those deliveries met an outage and are not counted: the entry does not go to the
 * failure stream however long the outage lasts (here many times {@code maxDeliveries}), and is
 * credited once issuer and queues are back. Real Redis streams; the issuer, the Kafka master and
 * the reward book are stand-ins.
 */
class RedisRewardConsumerOutageTest {

  private static final int MAX_DELIVERIES = 2;

  private static final RewardType TEA =
      new RewardType("TEA", RewardKind.COUPON, 1_000, 100, false, VirtualQueue.EXPRESS, "http://i");

  private final RedisLink redis = TestRedis.link();
  private final RewardKeys keys = new RewardKeys("t" + System.nanoTime());
  private final RedisRewardStream stream =
      new RedisRewardStream(redis, keys, "rewards-express", Duration.ofSeconds(5));
  private final RedisFailureLog failures = new RedisFailureLog(redis, keys);
  private final AtomicBoolean down = new AtomicBoolean(true);
  private final List<String> issued = new ArrayList<>();
  private final ExecutorService workers = Executors.newFixedThreadPool(4);
  private final MemorySwitches switches = new MemorySwitches();

  @AfterEach
  void stop() {
    workers.shutdownNow();
  }

  @Test
  void aReQueueMeetingBothTopicsDown_isNotCountedAsADelivery_andIsCreditedWhenTheyAreBack()
      throws Exception {
    var consumer = consumer();
    Reward reward =
        new Reward("t-1", "u-1", "c-1", "test", "TEA", Amount.fen(1), "", Instant.EPOCH);
    stream.send(reward, 0).toCompletableFuture().join();

    assertThatThrownBy(consumer::consumeOnce).isInstanceOf(RewardQueues.QueuesDown.class);
    for (int reclaim = 0; reclaim < 5 * MAX_DELIVERIES; reclaim++) {
      assertThatThrownBy(consumer::reclaimOnce).isInstanceOf(RewardQueues.QueuesDown.class);
    }

    assertThat(failures.tradeNos(10)).as("nothing in the failure stream").isEmpty();
    List<PendingMessage> pending = pending();
    assertThat(pending).hasSize(1);
    assertThat(pending.getFirst().getRedeliveryCount())
        .as("no delivery counted")
        .isLessThanOrEqualTo(1);

    down.set(false);
    assertThat(consumer.reclaimOnce()).isEqualTo(1);
    assertThat(issued).containsExactly("t-1");
    assertThat(pending()).isEmpty();
    assertThat(failures.tradeNos(10)).isEmpty();
  }

  /**
   * Issuing switched off while events are read and reclaimed, many times over: each delivery meets
   * the pause and is not counted, so the event waits on its stream however often the pipeline is
   * paused, and is credited once issuing is back, instead of going to the failure stream.
   */
  @Test
  void deliveriesMeetingAPause_areNotCounted_andTheEventIsCreditedOnResume() throws Exception {
    down.set(false);
    switches.set(Switch.REWARDS, false);
    var consumer = consumer();
    Reward reward =
        new Reward("t-3", "u-3", "c-1", "test", "TEA", Amount.fen(1), "", Instant.EPOCH);
    stream.send(reward, 0).toCompletableFuture().join();

    int settled = 0;
    for (int read = 0; read < stream.streams().size(); read++) {
      settled += consumer.consumeOnce();
    }
    for (int reclaim = 0; reclaim < 5 * MAX_DELIVERIES; reclaim++) {
      settled += consumer.reclaimOnce();
    }

    assertThat(settled).as("paused: nothing settled").isZero();
    assertThat(failures.tradeNos(10)).as("nothing in the failure stream").isEmpty();
    List<PendingMessage> pending = pending();
    assertThat(pending).hasSize(1);
    assertThat(pending.getFirst().getRedeliveryCount())
        .as("no delivery counted")
        .isLessThanOrEqualTo(1);

    switches.set(Switch.REWARDS, true);
    assertThat(consumer.reclaimOnce()).isEqualTo(1);
    assertThat(issued).containsExactly("t-3");
    assertThat(pending()).isEmpty();
    assertThat(failures.tradeNos(10)).isEmpty();
  }

  @Test
  void streamsLostWithTheirGroup_areReadAgain_onceASendHasMadeThemAgain() throws Exception {
    down.set(false);
    var consumer = consumer();
    // Redis restarts empty: the streams go, and their group with them. The next send's XADD makes
    // its stream again, without a group.
    redis.sync().del(stream.streams().toArray(String[]::new));
    Reward reward =
        new Reward("t-2", "u-2", "c-1", "test", "TEA", Amount.fen(1), "", Instant.EPOCH);
    stream.send(reward, 0).toCompletableFuture().join();

    assertThat(consumer.reclaimOnce()).as("nothing pending in a group made again").isZero();
    int settled = 0;
    for (int read = 0; read < stream.streams().size() && settled == 0; read++) {
      settled += consumer.consumeOnce();
    }

    assertThat(settled).isEqualTo(1);
    assertThat(issued).containsExactly("t-2");
    assertThat(pending()).isEmpty();
    assertThat(failures.tradeNos(10)).isEmpty();
  }

  /** The topic's consumer: reclaims at once, a delivery limit of {@link #MAX_DELIVERIES}. */
  private RedisRewardConsumer consumer() {
    return new RedisRewardConsumer(
        redis,
        stream.streams(),
        "consumer-1",
        handler(),
        failures,
        workers,
        new RedisRewardConsumer.Settings(16, Duration.ofMillis(10), Duration.ZERO, MAX_DELIVERIES));
  }

  private List<PendingMessage> pending() {
    String key = stream.streams().getFirst();
    return redis
        .sync()
        .xpending(
            key,
            new XPendingArgs<String>()
                .group(RedisRewardStream.GROUP)
                .range(io.lettuce.core.Range.unbounded())
                .limit(io.lettuce.core.Limit.from(10)));
  }

  /** The handler with an issuer, and a Kafka master, that are down while {@link #down} is set. */
  private RewardHandler handler() {
    Issuer issuer =
        (reward, type) -> {
          if (down.get()) {
            throw new Issuer.IssuerUnavailable("issuer down");
          }
          return new Issuer.Issue.Issued();
        };
    RewardProducer kafka =
        new RewardProducer() {
          @Override
          public String name() {
            return "kafka:rewards-express";
          }

          @Override
          public CompletionStage<Void> send(Reward reward, int attempt) {
            return CompletableFuture.failedFuture(new IllegalStateException("broker down"));
          }
        };
    RewardProducer redisTopic =
        new RewardProducer() {
          @Override
          public String name() {
            return stream.name();
          }

          @Override
          public CompletionStage<Void> send(Reward reward, int attempt) {
            return down.get()
                ? CompletableFuture.failedFuture(new IllegalStateException("streams refuse"))
                : stream.send(reward, attempt);
          }
        };
    var clock = Clock.systemUTC();
    var queues = new ArrayList<FailoverQueue>();
    for (VirtualQueue name : VirtualQueue.values()) {
      queues.add(new FailoverQueue(name, redisTopic, kafka, 100, clock, Runnable::run));
    }
    return new RewardHandler(
        new OneType(),
        (type, permits) -> 0,
        new RewardService(book(), issuer, new NoTokens(), RewardMetrics.NONE),
        unused(ParkingLot.class),
        failures,
        new RewardQueues(queues, RewardMetrics.NONE),
        switches,
        RewardMetrics.NONE,
        duration -> {},
        new ConsumeRate(1_000_000, clock, duration -> {}));
  }

  /** A reward book that has seen nothing, and records what is issued. */
  private RewardBook book() {
    return (RewardBook)
        Proxy.newProxyInstance(
            RewardBook.class.getClassLoader(),
            new Class<?>[] {RewardBook.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "find" -> Optional.empty();
                  case "recordIssued" -> {
                    issued.add(((Reward) args[0]).tradeNo());
                    yield RewardBook.Credit.DONE;
                  }
                  default -> throw new AssertionError("unexpected " + method.getName());
                });
  }

  @SuppressWarnings("unchecked") // a proxy of the interface asked for
  private static <T> T unused(Class<T> type) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              throw new AssertionError("unexpected " + method.getName());
            });
  }

  private static final class OneType implements RewardTypes {
    @Override
    public Optional<RewardType> find(String type) {
      return Optional.of(TEA).filter(t -> t.type().equals(type));
    }

    @Override
    public RewardType put(RewardType type) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<RewardType> all() {
      return List.of(TEA);
    }
  }

  private static final class NoTokens implements TokenStore {
    @Override
    public void save(Reward reward, String token) {}

    @Override
    public boolean holds(Reward reward) {
      return false;
    }

    @Override
    public void delete(Reward reward) {}

    @Override
    public List<String> pending(String userId, int max) {
      return List.of();
    }
  }
}
