package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.TestClock;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

/**
 * Both topics of every queue down for so long that {@link RewardQueues#MAX_HELD} events wait in
 * memory. The next send is told to try again ({@link RewardQueues.QueuesFull}, a 503 on the routes)
 * and holds nothing more, but keeps its reservation and its token copy: a send that timed out may
 * have landed all the same, and its credit needs them. Its trade is marked unqueued, for the
 * campaign's closer should nobody retry. A retry while the hold is still full is refused the same
 * way without reserving twice; once a topic is back, a retry replays the first reservation and
 * queues the event under the first token, and the held events drain, each taken once.
 *
 * <p>Component doubles, not the real queues: filling the hold of a real service takes 100,000
 * rewards accepted while Kafka and the Redis streams are both unreachable, and Redis also holds the
 * budget. The doubles are those of the other sender tests (budget semantics of {@code
 * budget_reserve.lua}, producers that refuse on demand).
 */
class RewardSenderQueuesFullTest {

  private static final RewardType TEA = RewardDoubles.TEA;

  private static final RewardRequest REQUEST =
      new RewardRequest("t1", "u1", "c1", "rain", "TEA", 1, "");

  private final TestClock clock = new TestClock(Instant.ofEpochSecond(1_000));
  private final RewardDoubles.FakeProducer kafka = new RewardDoubles.FakeProducer("kafka");
  private final RewardDoubles.FakeProducer redis = new RewardDoubles.FakeProducer("redis");
  private final RewardQueues queues = RewardDoubles.queuesOn(kafka, redis, clock);
  private final RewardDoubles.MemoryBudget budget = new RewardDoubles.MemoryBudget();
  private final TokenStore tokenStore = new RewardDoubles.MemoryTokens();
  private final RewardBook book = RewardDoubles.emptyBook();

  private final RewardSender sender =
      RewardDoubles.asyncSender(
          RewardDoubles.typesOf(TEA),
          budget,
          FundedBudgets.NONE,
          new RewardDoubles.MemoryClaims(),
          tokenStore,
          queues,
          book,
          clock);

  @Test
  void aSendPastAFullHold_isToldToRetry_keepingItsReservation_andItsRetryQueuesItOnce() {
    kafka.down = true;
    redis.down = true;
    for (int i = 0; i < RewardQueues.MAX_HELD; i++) {
      queues.send(
          new Reward("held-" + i, "u" + i, "c1", "", "TEA", Amount.fen(1), "", Instant.EPOCH),
          VirtualQueue.SPECIAL,
          0);
    }
    assertThat(queues.held()).isEqualTo(RewardQueues.MAX_HELD);

    assertThatThrownBy(() -> sender.send(REQUEST)).isInstanceOf(RewardQueues.QueuesFull.class);
    assertThat(queues.held()).as("nothing more held").isEqualTo(RewardQueues.MAX_HELD);
    assertThat(budget.trades).as("the reservation stays").containsOnlyKeys("t1");
    String firstToken = budget.trades.get("t1")[1];
    assertThat(tokenStore.holds(REQUEST.at(clock.instant()))).as("the token copy stays").isTrue();
    assertThat(budget.unqueued).as("for the closer").containsExactly("t1");

    assertThatThrownBy(() -> sender.send(REQUEST)).isInstanceOf(RewardQueues.QueuesFull.class);
    assertThat(budget.trades).containsOnlyKeys("t1");
    assertThat(budget.trades.get("t1")[1]).as("reserved once").isEqualTo(firstToken);

    redis.down = false;
    clock.advance(FailoverQueue.SUSPECT_FOR);
    assertThat(sender.send(REQUEST))
        .as("the first token")
        .isEqualTo(new SendOutcome.Accepted("t1", firstToken));
    assertThat(redis.taken).containsExactly("t1");

    for (int pass = 0; pass < 4 && queues.held() > 0; pass++) {
      clock.advance(FailoverQueue.SUSPECT_FOR);
      queues.retryHeld(RewardQueues.MAX_HELD);
    }
    assertThat(queues.held()).isZero();
    assertThat(redis.taken).hasSize(RewardQueues.MAX_HELD + 1);
    assertThat(new HashSet<>(redis.taken)).as("each taken once").hasSize(redis.taken.size());
    assertThat(kafka.taken).isEmpty();
  }
}
