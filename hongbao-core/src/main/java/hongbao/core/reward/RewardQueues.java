package hongbao.core.reward;

import hongbao.core.Invariants;
import hongbao.core.Unavailable;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The three virtual queues and the events none of their producers would take. Such an event is held
 * in memory and {@link #retryHeld} sends it again, alternating between master and backup, until one
 * takes it: nothing acknowledged to a caller is lost while the process lives. Holding is bounded
 * ({@link #MAX_HELD}); beyond that a send fails and the caller is told so.
 *
 * <p>Thread-safe.
 */
public final class RewardQueues {

  private static final System.Logger LOG = System.getLogger(RewardQueues.class.getName());

  public static final int MAX_HELD = 100_000;

  /** Longer than a producer's own delivery timeout, so a send ends by its own verdict. */
  public static final Duration SEND_TIMEOUT = Duration.ofSeconds(15);

  private final Map<VirtualQueue, FailoverQueue> queues;
  private final RewardMetrics metrics;
  private final ConcurrentLinkedDeque<Held> held = new ConcurrentLinkedDeque<>();
  private final AtomicInteger heldCount = new AtomicInteger();

  public RewardQueues(List<FailoverQueue> queues, RewardMetrics metrics) {
    var byName = new EnumMap<VirtualQueue, FailoverQueue>(VirtualQueue.class);
    queues.forEach(q -> byName.put(q.name(), q));
    for (VirtualQueue name : VirtualQueue.values()) {
      Invariants.check(byName.containsKey(name), "virtual queue %s has no topics", name);
    }
    this.queues = byName;
    this.metrics = metrics;
  }

  public FailoverQueue queue(VirtualQueue name) {
    return queues.get(name);
  }

  /** Where a send left the event. */
  public enum Delivery {
    SENT,
    HELD
  }

  /**
   * Sends an event on its virtual queue, failing over to the other topic; if neither takes it, it
   * is held for {@link #retryHeld}.
   *
   * @throws QueuesFull when too many events are held already: not held, though a send that timed
   *     out may have landed all the same
   */
  public Delivery send(Reward reward, VirtualQueue queue, int attempt) {
    if (trySend(reward, queue, attempt) == null) {
      return Delivery.SENT;
    }
    hold(new Held(reward, queue, attempt, !queues.get(queue).prefersMaster(reward.userId())));
    return Delivery.HELD;
  }

  /**
   * Sends an event that another durable store still holds (a queue entry being consumed, the
   * parking lot, the failure stream), failing over to the other topic, but never holding it in
   * memory: its caller removes that other copy only once a queue has it, so while both topics are
   * down the event stays where it is and survives a crash of this process.
   *
   * @throws QueuesDown when neither topic took it
   */
  public void handOver(Reward reward, VirtualQueue queue, int attempt) {
    Exception failure = trySend(reward, queue, attempt);
    if (failure != null) {
      throw new QueuesDown(queue, failure);
    }
  }

  /** Sends on the queue's topics and waits for the verdict: null once one took it, else why not. */
  private Exception trySend(Reward reward, VirtualQueue queue, int attempt) {
    try {
      RewardProducer producer =
          queues
              .get(queue)
              .send(reward, attempt)
              .toCompletableFuture()
              .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      metrics.produced(producer.name());
      return null;
    } catch (ExecutionException | CompletionException | TimeoutException e) {
      return e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    }
  }

  private void hold(Held event) {
    if (heldCount.incrementAndGet() > MAX_HELD) {
      heldCount.decrementAndGet();
      throw new QueuesFull();
    }
    held.addLast(event);
    LOG.log(
        Level.WARNING,
        "no queue took reward {0}; holding it in memory ({1} held)",
        event.reward.tradeNo(),
        heldCount.get());
  }

  /**
   * Sends up to {@code max} held events again, each to the producer it did not try last.
   *
   * @return how many were sent
   */
  public int retryHeld(int max) {
    var failed = new ArrayList<Held>();
    int sent = 0;
    Held event;
    for (int i = 0; i < max && (event = held.pollFirst()) != null; i++) {
      heldCount.decrementAndGet();
      FailoverQueue target = queues.get(event.queue);
      try {
        RewardProducer producer =
            target
                .sendOnly(event.nextToMaster, event.reward, event.attempt)
                .toCompletableFuture()
                .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        metrics.produced(producer.name());
        sent++;
      } catch (ExecutionException | CompletionException | TimeoutException e) {
        failed.add(new Held(event.reward, event.queue, event.attempt, !event.nextToMaster));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed.add(event);
        break;
      }
    }
    for (Held again : failed) {
      heldCount.incrementAndGet();
      held.addLast(again);
    }
    return sent;
  }

  /** How many events wait in memory for a queue to take them. */
  public int held() {
    return heldCount.get();
  }

  private record Held(Reward reward, VirtualQueue queue, int attempt, boolean nextToMaster) {}

  /** Neither topic of a virtual queue took an event handed over: an outage, retried later. */
  public static final class QueuesDown extends Unavailable {
    private static final long serialVersionUID = 1L;

    QueuesDown(VirtualQueue queue, Exception cause) {
      super("reward queues", "neither topic of " + queue + " took the event: " + cause, cause);
    }
  }

  /** Too many events are held already: the queues are down for too long. */
  public static final class QueuesFull extends RuntimeException {
    private static final long serialVersionUID = 1L;

    QueuesFull() {
      super("every reward queue is down and " + MAX_HELD + " events are held", null, false, false);
    }
  }
}
