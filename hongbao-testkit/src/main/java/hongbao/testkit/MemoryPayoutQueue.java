package hongbao.testkit;

import hongbao.core.money.Amount;
import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The payout queue in memory, with the semantics of the Redis stream and its consumer group: a
 * polled task is pending with its consumer until acknowledged (at least once: a consumer that dies
 * leaves it pending); a task pending longer than the idle time is reclaimed by another consumer,
 * each delivery counted, and one delivered more than the allowed times is dead-lettered instead. An
 * acknowledged task is gone for good; a second acknowledgement is a no-op.
 *
 * <p>Idle time is measured on the injected clock. Faults for the simulator: {@link #deliverAgain}
 * (a task handed out twice) and, through {@link #snapshot}/{@link #restore}, writes lost with the
 * store they live in.
 */
public final class MemoryPayoutQueue implements PayoutQueue {

  /** The same bound as the Redis queue's. */
  public static final int MAX_BATCH = 10_000;

  private final Clock clock;
  private State state = new State();

  public MemoryPayoutQueue(Clock clock) {
    this.clock = clock;
  }

  private static final class State {
    long lastId;
    final LinkedHashMap<Long, PayoutTask> entries = new LinkedHashMap<>();
    final Deque<Long> undelivered = new ArrayDeque<>();
    final LinkedHashMap<Long, Pending> pending = new LinkedHashMap<>();
    final List<DeadLetter> dead = new ArrayList<>();
    final Map<String, Instant> consumersSeen = new HashMap<>();

    State copy() {
      State c = new State();
      c.lastId = lastId;
      c.entries.putAll(entries);
      c.undelivered.addAll(undelivered);
      pending.forEach((id, p) -> c.pending.put(id, new Pending(p.consumer, p.deliveries, p.at)));
      c.dead.addAll(dead);
      c.consumersSeen.putAll(consumersSeen);
      return c;
    }
  }

  private static final class Pending {
    String consumer;
    int deliveries;
    Instant at;

    Pending(String consumer, int deliveries, Instant at) {
      this.consumer = consumer;
      this.deliveries = deliveries;
      this.at = at;
    }
  }

  /** What a grab appends: the task, its delivery tag assigned here. */
  public synchronized PayoutTask append(PayoutTask task) {
    long id = ++state.lastId;
    PayoutTask tagged = task.taggedAs("m-" + id);
    state.entries.put(id, tagged);
    state.undelivered.addLast(id);
    return tagged;
  }

  @Override
  public synchronized List<PayoutTask> poll(String consumer, int max, Duration wait) {
    checkBatch(max);
    Instant now = clock.instant();
    state.consumersSeen.put(consumer, now);
    var batch = new ArrayList<PayoutTask>();
    while (batch.size() < max && !state.undelivered.isEmpty()) {
      long id = state.undelivered.pollFirst();
      PayoutTask task = state.entries.get(id);
      if (task == null) {
        continue; // acknowledged meanwhile (a task handed out again, then settled)
      }
      Pending held = state.pending.get(id);
      state.pending.put(id, new Pending(consumer, held == null ? 1 : held.deliveries + 1, now));
      batch.add(task);
    }
    return batch;
  }

  @Override
  public synchronized void ack(List<PayoutTask> tasks) {
    for (PayoutTask task : tasks) {
      long id = idOf(task);
      state.entries.remove(id);
      state.pending.remove(id);
    }
  }

  @Override
  public synchronized List<PayoutTask> reclaim(
      String consumer, Duration minIdle, int maxDeliveries, int max) {
    checkBatch(max);
    if (maxDeliveries < 1) {
      throw new IllegalArgumentException("maxDeliveries must be positive: " + maxDeliveries);
    }
    Instant now = clock.instant();
    state.consumersSeen.put(consumer, now);
    var claimed = new ArrayList<PayoutTask>();
    for (var it = state.pending.entrySet().iterator(); it.hasNext() && claimed.size() < max; ) {
      var entry = it.next();
      Pending pending = entry.getValue();
      if (Duration.between(pending.at, now).compareTo(minIdle) < 0) {
        continue;
      }
      PayoutTask task = state.entries.get(entry.getKey());
      if (pending.deliveries > maxDeliveries) {
        it.remove();
        state.entries.remove(entry.getKey());
        state.dead.add(
            new DeadLetter(task, "delivered " + pending.deliveries + " times without being paid"));
        continue;
      }
      pending.consumer = consumer;
      pending.deliveries++;
      pending.at = now;
      claimed.add(task);
    }
    return claimed;
  }

  @Override
  public synchronized void deadLetter(PayoutTask task, String reason) {
    long id = idOf(task);
    PayoutTask entry = state.entries.remove(id);
    state.pending.remove(id);
    if (entry != null) {
      state.dead.add(new DeadLetter(entry, reason));
    }
  }

  @Override
  public synchronized List<DeadLetter> deadLetters(int max) {
    return List.copyOf(state.dead.subList(0, Math.min(max, state.dead.size())));
  }

  @Override
  public synchronized boolean redrive(String deadLetterId) {
    for (var it = state.dead.iterator(); it.hasNext(); ) {
      DeadLetter dead = it.next();
      if (dead.id().equals(deadLetterId)) {
        it.remove();
        append(dead.task());
        return true;
      }
    }
    return false;
  }

  @Override
  public synchronized int removeIdleConsumers(Duration idle) {
    Instant now = clock.instant();
    int removed = 0;
    for (var it = state.consumersSeen.entrySet().iterator(); it.hasNext(); ) {
      var seen = it.next();
      boolean holds =
          state.pending.values().stream().anyMatch(p -> p.consumer.equals(seen.getKey()));
      if (!holds && Duration.between(seen.getValue(), now).compareTo(idle) > 0) {
        it.remove();
        removed++;
      }
    }
    return removed;
  }

  @Override
  public synchronized long backlog() {
    return state.entries.size();
  }

  /** One queue here, as one stream: its first task, if grabbed before the time. */
  @Override
  public synchronized List<PayoutTask> waitingHeads(Instant grabbedBefore, int max) {
    return state.entries.values().stream()
        .limit(1)
        .filter(task -> task.grabbedAt().isBefore(grabbedBefore))
        .limit(max)
        .toList();
  }

  /** Tasks of a packet not yet acknowledged (what a close of a missing packet waits for). */
  public synchronized boolean hasTasksOf(long packetId) {
    return state.entries.values().stream().anyMatch(t -> t.packetId() == packetId);
  }

  /**
   * What the packet's dead-lettered payouts come to: still owed, for a retry may pay them. Those of
   * another creation under the id are left out, unless either side does not say (as {@code
   * close.lua}).
   */
  public synchronized Amount deadLetteredOf(long packetId, Instant packetCreatedAt) {
    return state.dead.stream()
        .map(DeadLetter::task)
        .filter(t -> t.packetId() == packetId)
        .filter(t -> sameCreation(t.packetCreatedAt(), packetCreatedAt))
        .map(PayoutTask::amount)
        .reduce(Amount.ZERO, Amount::plus);
  }

  /**
   * What the packet's tasks of users other than {@code userId} come to, waiting or dead, by user:
   * those of another creation under the id left out, unless either side does not say (as {@code
   * owed.lua}).
   */
  public synchronized Map<String, Amount> owedToOthers(
      long packetId, Instant packetCreatedAt, String userId) {
    var owed = new LinkedHashMap<String, Amount>();
    java.util.stream.Stream.concat(
            state.entries.values().stream(), state.dead.stream().map(DeadLetter::task))
        .filter(t -> t.packetId() == packetId && !t.userId().equals(userId))
        .filter(t -> sameCreation(t.packetCreatedAt(), packetCreatedAt))
        .forEach(t -> owed.merge(t.userId(), t.amount(), Amount::plus));
    return owed;
  }

  private static boolean sameCreation(Instant task, Instant meant) {
    return task == null || meant == null || task.toEpochMilli() == meant.toEpochMilli();
  }

  /** Tasks not yet acknowledged, in append order: what the grab store counts as pending pay. */
  public synchronized List<PayoutTask> unacknowledged() {
    return List.copyOf(state.entries.values());
  }

  /**
   * Fault: hands a task someone holds to the next poll as well, without the idle guard, as a
   * reclaim racing a slow consumer does. Returns false when nothing is held.
   */
  public synchronized boolean deliverAgain(int which) {
    if (state.pending.isEmpty()) {
      return false;
    }
    List<Long> held = new ArrayList<>(state.pending.keySet());
    long id = held.get(Math.floorMod(which, held.size()));
    if (!state.undelivered.contains(id)) {
      state.undelivered.addLast(id);
    }
    return true;
  }

  /** The queue's state now, to {@link #restore} when a crash loses what came after. */
  public synchronized Object snapshot() {
    return state.copy();
  }

  /**
   * Goes back to a snapshot, keeping entry ids growing: a restarted Redis numbers new stream
   * entries by time, never reusing an id a consumer may still hold.
   */
  public synchronized void restore(Object snapshot) {
    long lastId = state.lastId;
    state = ((State) snapshot).copy();
    state.lastId = Math.max(lastId, state.lastId);
  }

  private static long idOf(PayoutTask task) {
    String tag = task.deliveryTag();
    if (tag == null || !tag.startsWith("m-")) {
      throw new IllegalArgumentException("not a delivery tag of this queue: " + tag);
    }
    return Long.parseLong(tag.substring(2));
  }

  private static void checkBatch(int max) {
    if (max < 1 || max > MAX_BATCH) {
      throw new IllegalArgumentException("batch size " + max + " not in 1.." + MAX_BATCH);
    }
  }
}
