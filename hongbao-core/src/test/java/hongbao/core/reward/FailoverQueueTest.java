package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A master that fails completes its failure on its own client's thread (Redis's I/O thread for an
 * error reply). The backup, a Kafka producer whose send may block for its metadata, must not be
 * tried on that thread: it would stall every command of the connection meanwhile.
 */
class FailoverQueueTest {

  private static final Reward REWARD =
      new Reward("t1", "u1", "c1", "rain", "CASH", Amount.fen(888), "", Instant.EPOCH);

  @Test
  void theBackupIsTried_offTheThreadThatFailedTheMaster() throws Exception {
    var ioThread = new AtomicReference<Thread>();
    var attached = new CountDownLatch(1);
    RewardProducer master =
        RewardDoubles.producer(
            "redis:rewards-express",
            (reward, attempt) -> {
              var failed = new CompletableFuture<Void>();
              Thread io =
                  Thread.ofPlatform()
                      .name("redis-io")
                      .start(
                          () -> {
                            // The reply comes once the queue has chained its failover to the send.
                            awaitUninterruptibly(attached);
                            failed.completeExceptionally(new IllegalStateException("OOM"));
                          });
              ioThread.set(io);
              return failed;
            });
    var triedOn = new AtomicReference<Thread>();
    RewardProducer backup =
        RewardDoubles.producer(
            "kafka:rewards-express",
            (reward, attempt) -> {
              triedOn.set(Thread.currentThread());
              return CompletableFuture.completedFuture(null);
            });
    RewardProducer took;
    try (var failingOver = Executors.newSingleThreadExecutor()) {
      var queue =
          new FailoverQueue(
              VirtualQueue.EXPRESS, master, backup, 100, Clock.systemUTC(), failingOver);
      CompletionStage<RewardProducer> sent = queue.send(REWARD, 0);
      attached.countDown();
      took = sent.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    assertThat(took).isSameAs(backup);
    assertThat(triedOn.get()).isNotNull().isNotSameAs(ioThread.get());
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
