package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.TestClock;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class RewardQueuesTest {

  private static Reward reward(String user) {
    return new Reward("t-" + user, user, "c", "", "CASH", Amount.fen(1), "", Instant.EPOCH);
  }

  private final RewardDoubles.FakeProducer kafka = new RewardDoubles.FakeProducer("kafka");
  private final RewardDoubles.FakeProducer redis = new RewardDoubles.FakeProducer("redis");
  private final TestClock clock = new TestClock(Instant.ofEpochSecond(1_000));

  private RewardQueues queues(int masterPercent) {
    var list = new ArrayList<FailoverQueue>();
    for (VirtualQueue name : VirtualQueue.values()) {
      list.add(new FailoverQueue(name, kafka, redis, masterPercent, clock, Runnable::run));
    }
    return new RewardQueues(list, RewardMetrics.NONE);
  }

  @Test
  void send_splitsUsersByTheRatio_byHashOfTheUser() {
    var queues = queues(80);
    for (int i = 0; i < 1_000; i++) {
      queues.send(reward("u" + i), VirtualQueue.MASSIVE, 0);
    }
    assertThat(kafka.taken.size()).isBetween(700, 900);
    assertThat(kafka.taken.size() + redis.taken.size()).isEqualTo(1_000);
    for (String tradeNo : kafka.taken) {
      String user = tradeNo.substring(2);
      assertThat(queues.queue(VirtualQueue.MASSIVE).prefersMaster(user)).isTrue();
    }
  }

  @Test
  void send_whenTheMasterIsDown_goesToTheBackup_andSkipsTheMasterWhileItIsSuspect() {
    var queues = queues(100);
    kafka.down = true;
    for (int i = 0; i < 100; i++) {
      assertThat(queues.send(reward("u" + i), VirtualQueue.SPECIAL, 0))
          .isEqualTo(RewardQueues.Delivery.SENT);
    }
    assertThat(redis.taken).hasSize(100);
    assertThat(kafka.refused).as("one timeout, not one per event").isEqualTo(1);
  }

  @Test
  void send_whenBothAreDown_holdsTheEvent_andRetryAlternatesUntilOneTakesIt() {
    var queues = queues(100);
    kafka.down = true;
    redis.down = true;
    assertThat(queues.send(reward("u1"), VirtualQueue.EXPRESS, 0))
        .isEqualTo(RewardQueues.Delivery.HELD);
    assertThat(queues.held()).isEqualTo(1);
    assertThat(kafka.refused).isEqualTo(1);
    assertThat(redis.refused).isEqualTo(1);

    // Each retry goes to the producer the event did not try last, once it may be probed again.
    clock.advance(FailoverQueue.SUSPECT_FOR);
    assertThat(queues.retryHeld(10)).isZero();
    clock.advance(FailoverQueue.SUSPECT_FOR);
    assertThat(queues.retryHeld(10)).isZero();
    assertThat(kafka.refused).isEqualTo(2);
    assertThat(redis.refused).isEqualTo(2);

    redis.down = false;
    clock.advance(FailoverQueue.SUSPECT_FOR);
    int sent = queues.retryHeld(10) + queues.retryHeld(10);
    assertThat(sent).isEqualTo(1);
    assertThat(redis.taken).containsExactly("t-u1");
    assertThat(queues.held()).isZero();
  }

  /**
   * Both queues down: the first event pays each producer's timeout, the next are held at once
   * without trying either, and retries probe each producer once per {@link
   * FailoverQueue#SUSPECT_FOR}, not once per held event. When one comes back every held event goes
   * to it.
   */
  @Test
  void send_whenBothAreDown_triesEachOncePerPeriod_notOncePerEvent() {
    var queues = queues(50);
    kafka.down = true;
    redis.down = true;
    for (int i = 0; i < 1_000; i++) {
      assertThat(queues.send(reward("u" + i), VirtualQueue.MASSIVE, 0))
          .isEqualTo(RewardQueues.Delivery.HELD);
    }
    assertThat(queues.held()).isEqualTo(1_000);
    assertThat(kafka.refused).isEqualTo(1);
    assertThat(redis.refused).isEqualTo(1);

    assertThat(queues.retryHeld(1_000)).isZero();
    assertThat(kafka.refused + redis.refused).as("still suspect: nothing tried").isEqualTo(2);
    clock.advance(FailoverQueue.SUSPECT_FOR);
    assertThat(queues.retryHeld(1_000)).isZero();
    assertThat(kafka.refused).isEqualTo(2);
    assertThat(redis.refused).isEqualTo(2);

    kafka.down = false;
    clock.advance(FailoverQueue.SUSPECT_FOR);
    int sent = 0;
    for (int pass = 0; pass < 3 && queues.held() > 0; pass++) {
      sent += queues.retryHeld(1_000);
    }
    assertThat(sent).isEqualTo(1_000);
    assertThat(queues.held()).isZero();
    assertThat(kafka.taken).hasSize(1_000).doesNotHaveDuplicates();
    assertThat(redis.taken).isEmpty();
  }
}
