package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.TestClock;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An event that a durable store still holds — the queue entry being re-queued, a parked event — is
 * handed over to its queue, never held in memory: with both topics down the move fails as an outage
 * and the old copy stays, so a crash of this process loses nothing. (The operator's retry of a
 * failure-stream entry is in {@link RewardFailuresTest}.)
 */
class RewardHandOverTest {

  private static final RewardType TEA = RewardDoubles.TEA;

  private final TestClock clock = new TestClock(Instant.ofEpochSecond(1_000));
  private final RewardDoubles.FakeProducer kafka = new RewardDoubles.FakeProducer("kafka");
  private final RewardDoubles.FakeProducer redis = new RewardDoubles.FakeProducer("redis");
  private final RewardQueues queues = RewardDoubles.queuesOn(kafka, redis, clock);

  private static Reward reward(String tradeNo) {
    return new Reward(
        tradeNo, "u-" + tradeNo, "c1", "rain", "TEA", Amount.fen(1), "", Instant.EPOCH);
  }

  private void bothTopics(boolean down) {
    kafka.down = down;
    redis.down = down;
    // Past the suspect period of the last failure, so the next event tries them again.
    clock.advance(FailoverQueue.SUSPECT_FOR.plusSeconds(1));
  }

  @Test
  void aRequeue_whileBothTopicsAreDown_failsAsAnOutage_holdingNothing_thenGoesThroughOnceOneIsUp()
      throws Exception {
    Issuer down =
        (reward, type) -> {
          throw new Issuer.IssuerUnavailable("issuer timed out");
        };
    var handler =
        new RewardHandler(
            RewardDoubles.typesOf(TEA),
            (type, permits) -> 0,
            new RewardService(
                RewardDoubles.emptyBook(), down, new RewardDoubles.NoTokens(), RewardMetrics.NONE),
            new Lot(),
            new RewardDoubles.NoFailures(),
            queues,
            new RewardDoubles.AlwaysOn(),
            RewardMetrics.NONE,
            duration -> {},
            new ConsumeRate(1_000_000, clock, duration -> {}));
    bothTopics(true);

    // The consumer leaves the entry unacknowledged on an outage: Kafka retries it in place, Redis
    // leaves it pending to be reclaimed.
    assertThatThrownBy(() -> handler.handle(reward("t1"), 4))
        .isInstanceOf(RewardQueues.QueuesDown.class)
        .isInstanceOf(Unavailable.class);
    assertThat(queues.held()).as("nothing held in memory for the entry").isZero();
    assertThat(kafka.refused + redis.refused).as("both topics were tried").isEqualTo(2);

    bothTopics(false);
    assertThat(handler.handle(reward("t1"), 4)).isEqualTo(RewardHandler.Handling.REQUEUED);
    assertThat(kafka.taken).containsExactly("t1");
    assertThat(kafka.attempts).as("with its attempt counted").containsExactly(5);
    assertThat(queues.held()).isZero();
  }

  @Test
  void theUnparker_whileBothTopicsAreDown_removesOnlyWhatAQueueTook_andSendsTheRestLater() {
    var lot = new Lot();
    lot.park(reward("t1"), 0);
    lot.park(reward("t2"), 3);
    lot.park(reward("t3"), 0);
    // The master takes one event, then goes down with the backup.
    List<String> taken = new ArrayList<>();
    RewardProducer takesOne =
        RewardDoubles.producer(
            "kafka",
            (reward, attempt) -> {
              if (taken.size() == 1) {
                return CompletableFuture.failedFuture(new IllegalStateException("kafka is down"));
              }
              taken.add(reward.tradeNo());
              return CompletableFuture.completedFuture(null);
            });
    redis.down = true;
    var unparker =
        new Unparker(
            RewardDoubles.typesOf(TEA),
            lot,
            RewardDoubles.queuesOn(takesOne, redis, clock),
            "instance-1");

    assertThatThrownBy(unparker::unparkOnce).isInstanceOf(RewardQueues.QueuesDown.class);
    assertThat(taken).containsExactly("t1");
    assertThat(lot.tradeNos()).as("still parked, durably").containsExactly("t2", "t3");

    bothTopics(false);
    var queuesUp = RewardDoubles.queuesOn(redis, redis, clock);
    assertThat(new Unparker(RewardDoubles.typesOf(TEA), lot, queuesUp, "instance-1").unparkOnce())
        .isEqualTo(2);
    assertThat(redis.taken).containsExactly("t2", "t3");
    assertThat(redis.attempts).as("each with its own attempt").containsExactly(3, 0);
    assertThat(lot.tradeNos()).isEmpty();
  }

  @Test
  void theUnparker_leavesAFusedTypesEventsParked() {
    var lot = new Lot();
    lot.park(reward("t1"), 0);
    RewardType fused =
        new RewardType("TEA", RewardKind.COUPON, 10, 1, true, VirtualQueue.SPECIAL, "http://i");

    assertThat(new Unparker(RewardDoubles.typesOf(fused), lot, queues, "instance-1").unparkOnce())
        .isZero();
    assertThat(lot.tradeNos()).containsExactly("t1");
    assertThat(kafka.taken).isEmpty();
  }

  /**
   * Two instances' unparkers on one lot, the second running while the first is halfway through
   * handing a batch over: the second leaves the type to the first, which holds its lease, so each
   * parked event goes back once. Without the lease both sent the same events, every duplicate
   * taking a token of the type's rate when consumed.
   */
  @Test
  void twoInstancesUnparkers_sendEachParkedEventOnce() throws Exception {
    var lot = new Lot();
    for (String tradeNo : List.of("t1", "t2", "t3")) {
      lot.park(reward(tradeNo), 0);
    }
    var firstIsSending = new CountDownLatch(1);
    var secondIsDone = new CountDownLatch(1);
    var sent = Collections.synchronizedList(new ArrayList<String>());
    RewardProducer slowOnFirst =
        RewardDoubles.producer(
            "kafka",
            (reward, attempt) -> {
              sent.add(reward.tradeNo());
              if (Thread.currentThread().getName().equals("first")) {
                firstIsSending.countDown();
                try {
                  secondIsDone.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return CompletableFuture.completedFuture(null);
            });
    RewardQueues shared = RewardDoubles.queuesOn(slowOnFirst, redis, clock);
    var first = new Unparker(RewardDoubles.typesOf(TEA), lot, shared, "instance-1");
    var second = new Unparker(RewardDoubles.typesOf(TEA), lot, shared, "instance-2");

    var firstSent = new AtomicInteger();
    Thread running =
        Thread.ofPlatform().name("first").start(() -> firstSent.set(first.unparkOnce()));
    assertThat(firstIsSending.await(10, TimeUnit.SECONDS)).isTrue();
    int secondSent = second.unparkOnce();
    secondIsDone.countDown();
    running.join(10_000);

    assertThat(secondSent).isZero();
    assertThat(firstSent).hasValue(3);
    assertThat(sent).containsExactly("t1", "t2", "t3");
    assertThat(lot.tradeNos()).isEmpty();
  }

  /**
   * An unparker whose pass stalls until another instance takes the type over (its lease lapsed)
   * stops after the event in hand: the other instance sends the rest, each once.
   */
  @Test
  void anUnparkerThatLostItsLease_stopsMidBatch() {
    var lot = new Lot();
    for (String tradeNo : List.of("t1", "t2", "t3")) {
      lot.park(reward(tradeNo), 0);
    }
    RewardProducer takenOverWhileSending =
        RewardDoubles.producer(
            "kafka",
            (reward, attempt) -> {
              kafka.taken.add(reward.tradeNo());
              lot.leases.put("TEA", "instance-2"); // instance-1's lease lapsed meanwhile
              return CompletableFuture.completedFuture(null);
            });
    RewardQueues shared = RewardDoubles.queuesOn(takenOverWhileSending, redis, clock);

    assertThat(new Unparker(RewardDoubles.typesOf(TEA), lot, shared, "instance-1").unparkOnce())
        .isEqualTo(1);
    assertThat(lot.tradeNos()).containsExactly("t2", "t3");
  }

  /** The parking lot in memory, in order of parking; a lease lasts until a test hands it on. */
  private static final class Lot implements ParkingLot {
    private final List<Parked> parked = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, String> leases = new ConcurrentHashMap<>();
    private int next;

    @Override
    public boolean leaseUnparking(String type, String owner, Duration lease) {
      return leases.computeIfAbsent(type, t -> owner).equals(owner);
    }

    @Override
    public void park(Reward reward, int attempt) {
      parked.add(new Parked(String.valueOf(++next), reward, attempt));
    }

    @Override
    public List<Parked> peek(String type, int max) {
      synchronized (parked) {
        return parked.stream().filter(p -> p.reward().type().equals(type)).limit(max).toList();
      }
    }

    @Override
    public void remove(String type, List<Parked> removed) {
      parked.removeAll(removed);
    }

    @Override
    public long size() {
      return parked.size();
    }

    List<String> tradeNos() {
      return parked.stream().map(p -> p.reward().tradeNo()).toList();
    }
  }
}
