package hongbao.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabStore;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What every payout queue must do, run against the in-memory queue and the Redis streams alike:
 * delivery at least once (a task polled and not acknowledged stays pending and is reclaimed by
 * another consumer), never after an acknowledgement, dead-lettered after too many deliveries or at
 * once when given up on.
 */
public abstract class PayoutQueueContract {

  private static final AtomicLong IDS = new AtomicLong(1_000);
  private static final Duration LONG_IDLE = Duration.ofHours(1);

  protected abstract GrabStore store();

  protected abstract PayoutQueue queue();

  protected abstract Instant start();

  protected long newPacketId() {
    return IDS.incrementAndGet();
  }

  /** Tasks enter the queue as grabs: {@code users} each grab one share of 10 fen. */
  private long grabbed(int users) {
    return grabbed(users, Duration.ofSeconds(1));
  }

  /** As {@link #grabbed(int)}, the grabs made {@code after} the packet was armed. */
  private long grabbed(int users, Duration after) {
    Instant t0 = start();
    long id = newPacketId();
    var packet =
        new Packet(
            id,
            "sender",
            PacketType.FIXED,
            Amount.fen(10L * users),
            users,
            null,
            null,
            List.of(),
            t0,
            t0.plus(Duration.ofHours(1)));
    store()
        .arm(
            new ArmedPacket(
                packet, IntStream.range(0, users).mapToObj(i -> Amount.fen(10)).toList()),
            t0);
    for (int i = 0; i < users; i++) {
      store()
          .grab(new GrabAttempt(id, "u" + IDS.incrementAndGet(), null, t0.plus(after)))
          .toCompletableFuture()
          .join();
    }
    return id;
  }

  private List<PayoutTask> pollAll(String consumer) {
    var all = new ArrayList<PayoutTask>();
    for (int round = 0; round < 10; round++) {
      List<PayoutTask> batch = queue().poll(consumer, 100, Duration.ZERO);
      if (batch.isEmpty()) {
        break;
      }
      all.addAll(batch);
    }
    return all;
  }

  @Test
  void polledTask_staysPendingUntilAcked_andIsReclaimedByAnother() {
    long id = grabbed(2);
    List<PayoutTask> first = pollAll("w1");
    assertThat(first).hasSize(2).allMatch(t -> t.packetId() == id);

    assertThat(pollAll("w2")).as("pending tasks are not polled again").isEmpty();
    assertThat(queue().reclaim("w2", LONG_IDLE, 5, 100)).as("not idle long enough").isEmpty();
    List<PayoutTask> reclaimed = queue().reclaim("w2", Duration.ZERO, 5, 100);

    assertThat(reclaimed)
        .extracting(PayoutTask::userId)
        .containsExactlyInAnyOrderElementsOf(first.stream().map(PayoutTask::userId).toList());
    assertThat(queue().backlog()).isEqualTo(2);
    queue().ack(reclaimed);
    queue().ack(first); // the first consumer's late acknowledgement is harmless
    assertThat(queue().backlog()).isZero();
  }

  @Test
  void waitingHeads_areTheFirstUnackedTasks_grabbedBeforeTheTime_deliveredOrNot() {
    long id = grabbed(2, Duration.ofSeconds(2));
    Instant grabbed = start().plusSeconds(2);
    assertThat(queue().waitingHeads(grabbed, 10)).as("grabbed at, not before").isEmpty();
    assertThat(queue().waitingHeads(grabbed.plusMillis(1), 10))
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.packetId()).isEqualTo(id);
              assertThat(t.grabbedAt()).isEqualTo(grabbed);
            });

    List<PayoutTask> tasks = pollAll("w1");
    assertThat(queue().waitingHeads(grabbed.plusMillis(1), 10))
        .as("delivered, not acknowledged")
        .hasSize(1);
    queue().ack(tasks);
    assertThat(queue().waitingHeads(grabbed.plusMillis(1), 10)).isEmpty();
  }

  @Test
  void ackedTask_isNeverDeliveredAgain() {
    grabbed(3);
    List<PayoutTask> tasks = pollAll("w1");
    assertThat(tasks).hasSize(3);

    queue().ack(tasks);

    assertThat(pollAll("w1")).isEmpty();
    assertThat(queue().reclaim("w2", Duration.ZERO, 5, 100)).isEmpty();
    assertThat(queue().backlog()).isZero();
  }

  @Test
  void taskDeliveredMoreThanTheLimit_isDeadLettered_notReturned() {
    grabbed(1);
    PayoutTask task = pollAll("w1").get(0);
    int maxDeliveries = 3;

    int deliveries = 1;
    for (int round = 0; round < 10; round++) {
      if (queue().reclaim("w" + round, Duration.ZERO, maxDeliveries, 100).isEmpty()) {
        break;
      }
      deliveries++;
    }

    assertThat(deliveries)
        .as("dead-lettered at the first reclaim after more than the limit")
        .isEqualTo(maxDeliveries + 1);
    List<DeadLetter> dead = queue().deadLetters(100);
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0).task().userId()).isEqualTo(task.userId());
    assertThat(dead.get(0).reason()).contains("delivered");
    assertThat(queue().backlog()).isZero();
  }

  @Test
  void deadLetteredTask_carriesItsReason_andIsNeverDeliveredAgain() {
    grabbed(1);
    PayoutTask task = pollAll("w1").get(0);

    queue().deadLetter(task, "the books refuse");

    assertThat(queue().deadLetters(100))
        .extracting(d -> d.task().userId(), DeadLetter::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(task.userId(), "the books refuse"));
    assertThat(pollAll("w1")).isEmpty();
    assertThat(queue().reclaim("w2", Duration.ZERO, 5, 100)).isEmpty();
  }
}
