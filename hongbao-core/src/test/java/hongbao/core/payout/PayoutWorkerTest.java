package hongbao.core.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Unavailable;
import hongbao.core.ledger.ClaimPayment;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.WalletSnapshot;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.Packet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** How the payout worker sorts what goes wrong: only an outage holds work back. */
class PayoutWorkerTest {

  private final Queue queue = new Queue();
  private final Books ledger = new Books();
  private final PayoutWorker worker =
      new PayoutWorker(
          queue,
          ledger,
          new AllOn(),
          new PayoutWorker.PayoutSettings("w", 10, Duration.ZERO, Duration.ofSeconds(30), 3));

  private static PayoutTask task(String user) {
    return new PayoutTask(1, user, Amount.fen(10), Instant.EPOCH, "tag-" + user);
  }

  @Test
  void outage_keepsTheBatchInMemory_andRetriesItWithoutPolling() {
    queue.waiting.addAll(List.of(task("a"), task("b")));
    ledger.down = true;

    assertThatThrownBy(worker::payOnce).isInstanceOf(Unavailable.class);
    queue.waiting.add(task("c"));
    ledger.down = false;

    assertThat(worker.payOnce()).isEqualTo(2);
    assertThat(ledger.paid).containsExactly("a", "b");
    assertThat(queue.acked).containsExactly("a", "b");
    assertThat(worker.payOnce()).isEqualTo(1);
  }

  @Test
  void refusedTask_isDeadLetteredAtOnce_andTheRestArePaid() {
    queue.waiting.addAll(List.of(task("a"), task("refused"), task("b")));
    ledger.refuse.add("refused");

    assertThat(worker.payOnce()).isEqualTo(3);

    assertThat(ledger.paid).containsExactly("a", "b");
    assertThat(queue.acked).containsExactly("a", "b");
    assertThat(queue.dead).containsExactly("refused");
  }

  @Test
  void taskThatKeepsFailing_isLeftToRedelivery_andNeverHoldsTheWorker() {
    queue.waiting.addAll(List.of(task("a"), task("broken")));
    ledger.broken.add("broken");

    assertThat(worker.payOnce()).isEqualTo(1);
    queue.waiting.add(task("b"));

    assertThat(worker.payOnce()).as("a new batch is polled, not the failed one").isEqualTo(1);
    assertThat(ledger.paid).containsExactly("a", "b");
    assertThat(queue.acked).containsExactly("a", "b");
    assertThat(queue.dead).isEmpty();
  }

  private static final class Queue implements PayoutQueue {
    final Deque<PayoutTask> waiting = new ArrayDeque<>();
    final List<String> acked = new ArrayList<>();
    final List<String> dead = new ArrayList<>();

    @Override
    public List<PayoutTask> poll(String consumer, int max, Duration wait) {
      var batch = new ArrayList<PayoutTask>();
      while (batch.size() < max && !waiting.isEmpty()) {
        batch.add(waiting.pollFirst());
      }
      return batch;
    }

    @Override
    public void ack(List<PayoutTask> tasks) {
      tasks.forEach(t -> acked.add(t.userId()));
    }

    @Override
    public List<PayoutTask> reclaim(String consumer, Duration minIdle, int maxDeliveries, int max) {
      return List.of();
    }

    @Override
    public void deadLetter(PayoutTask task, String reason) {
      dead.add(task.userId());
    }

    @Override
    public List<DeadLetter> deadLetters(int max) {
      return List.of();
    }

    @Override
    public boolean redrive(String deadLetterId) {
      return false;
    }

    @Override
    public int removeIdleConsumers(Duration idle) {
      return 0;
    }

    @Override
    public long backlog() {
      return waiting.size();
    }

    @Override
    public List<PayoutTask> waitingHeads(Instant grabbedBefore, int max) {
      return waiting.stream().limit(1).filter(t -> t.grabbedAt().isBefore(grabbedBefore)).toList();
    }
  }

  /** Pays by user id; can be down, refuse some users, or fail on others. */
  private static final class Books implements Ledger {
    boolean down;
    final Set<String> refuse = new HashSet<>();
    final Set<String> broken = new HashSet<>();
    final List<String> paid = new ArrayList<>();

    @Override
    public int pay(List<PayoutTask> tasks) {
      if (down) {
        throw new Unavailable("postgres", "down", null);
      }
      for (PayoutTask task : tasks) {
        if (refuse.contains(task.userId())) {
          throw new PayoutRefused("would overdraw");
        }
        if (broken.contains(task.userId())) {
          throw new IllegalStateException("broken row");
        }
      }
      tasks.forEach(t -> paid.add(t.userId()));
      return tasks.size();
    }

    @Override
    public long nextPacketId() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void send(Packet packet, IdempotencyKey key, StoredAnswer answer) {
      throw new UnsupportedOperationException();
    }

    @Override
    public StoredAnswer topUp(
        String userId, Amount amount, IdempotencyKey key, Function<Amount, StoredAnswer> answer) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean refund(long packetId, Amount remainder, Instant at) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ClaimPayment payClaim(PayoutTask task, Amount keep) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<ClaimResolution> resolveRefusedClaim(
        long claimId, ClaimDecision decision, String note, Instant at) {
      throw new UnsupportedOperationException();
    }

    @Override
    public WalletSnapshot wallet(String userId, int limit, Collection<Long> packetIds) {
      throw new UnsupportedOperationException();
    }
  }

  private static final class AllOn implements Switches {
    @Override
    public boolean enabled(Switch which) {
      return true;
    }

    @Override
    public Map<Switch, Boolean> set(Switch which, boolean enabled) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<Switch, Boolean> all() {
      return new HashMap<>();
    }
  }
}
