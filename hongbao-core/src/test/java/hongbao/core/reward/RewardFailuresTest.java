package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.TestClock;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * An operator's retry of a failed reward. The queue here hands each event straight to a consumer
 * that answers it as the reward book answers a reward the issuer refused for good: failed again, at
 * once, with a new entry, before the retry has forgotten the old one.
 */
class RewardFailuresTest {

  private static final Reward REFUSED =
      new Reward("t-1", "banned", "c", "", "VIP_PASS", Amount.fen(1), "", Instant.EPOCH);

  private static final RewardType VIP_PASS =
      new RewardType(
          "VIP_PASS",
          RewardKind.COUPON,
          100,
          10,
          false,
          VirtualQueue.SPECIAL,
          "http://127.0.0.1:9/i");

  /** The failure stream in memory: entries in order, ids counting up as Redis's do. */
  private static final class MemoryFailureLog implements FailureLog {
    final Map<String, Failure> entries = new LinkedHashMap<>();
    int next;

    @Override
    public void fail(Reward reward, String reason) {
      String id = (++next) + "-0";
      entries.put(id, new Failure(id, reward, reason));
    }

    @Override
    public List<String> entries(int max) {
      return failures(max).stream().map(f -> f.reward().tradeNo() + ": " + f.reason()).toList();
    }

    @Override
    public List<String> tradeNos(int max) {
      return failures(max).stream().map(f -> f.reward().tradeNo()).toList();
    }

    @Override
    public List<Failure> failures(int max) {
      return entries.values().stream().limit(max).toList();
    }

    @Override
    public boolean forget(String id) {
      return entries.remove(id) != null;
    }
  }

  /** A queue whose consumer fails every event again as soon as it is sent. */
  private final class RefusingAgain implements RewardProducer {
    final List<String> sent = new ArrayList<>();

    @Override
    public String name() {
      return "refusing-again";
    }

    @Override
    public CompletionStage<Void> send(Reward reward, int attempt) {
      sent.add(reward.tradeNo());
      log.fail(reward, "refused by the issuer: answered from the reward book");
      return CompletableFuture.completedFuture(null);
    }
  }

  private final TestClock clock = new TestClock(Instant.ofEpochSecond(1_000));
  private final MemoryFailureLog log = new MemoryFailureLog();
  private final RefusingAgain producer = new RefusingAgain();
  private final RewardFailures failures = failures();

  private RewardFailures failures() {
    return failuresOn(producer, producer);
  }

  private RewardFailures failuresOn(RewardProducer master, RewardProducer backup) {
    return new RewardFailures(
        log, RewardDoubles.queuesOn(master, backup, clock), RewardDoubles.typesOf(VIP_PASS));
  }

  @Test
  void retry_ofARewardThatFailsAgainAtOnce_keepsItsNewEntry_andForgetsOnlyTheOld() {
    log.fail(REFUSED, "refused by the issuer: issuer answered 422: banned");
    String old = log.failures(10).getFirst().id();

    assertThat(failures.retry("t-1")).isEqualTo(RewardFailures.Retry.QUEUED);

    assertThat(producer.sent).containsExactly("t-1");
    assertThat(log.failures(10))
        .singleElement()
        .satisfies(
            failure -> {
              assertThat(failure.id()).isNotEqualTo(old);
              assertThat(failure.reward()).isEqualTo(REFUSED);
            });
  }

  @Test
  void retry_ofATradeNoNotInTheStream_isNotFound_andSendsNothing() {
    assertThat(failures.retry("t-1")).isEqualTo(RewardFailures.Retry.NOT_FOUND);
    assertThat(producer.sent).isEmpty();
  }

  @Test
  void retry_ofAnUndefinedType_leavesTheEntry() {
    var unknown = new Reward("t-2", "u", "c", "", "GONE", Amount.fen(1), "", Instant.EPOCH);
    log.fail(unknown, "gave up after 20 attempts");

    assertThat(failures.retry("t-2")).isEqualTo(RewardFailures.Retry.UNKNOWN_TYPE);
    assertThat(log.tradeNos(10)).containsExactly("t-2");
    assertThat(producer.sent).isEmpty();
  }

  @Test
  void retry_whileBothTopicsAreDown_isAnOutage_andTheEntryStays_untilAQueueTakesIt() {
    var kafka = new RewardDoubles.FakeProducer("kafka");
    var redis = new RewardDoubles.FakeProducer("redis");
    kafka.down = true;
    redis.down = true;
    RewardFailures retrying = failuresOn(kafka, redis);
    log.fail(REFUSED, "gave up after 20 attempts: issuer timed out");

    assertThatThrownBy(() -> retrying.retry("t-1"))
        .isInstanceOf(RewardQueues.QueuesDown.class)
        .isInstanceOf(Unavailable.class);
    assertThat(log.tradeNos(10))
        .as("not forgotten: nothing holds it but the stream")
        .contains("t-1");

    redis.down = false;
    clock.advance(FailoverQueue.SUSPECT_FOR.plusSeconds(1));
    assertThat(retrying.retry("t-1")).isEqualTo(RewardFailures.Retry.QUEUED);
    assertThat(redis.taken).containsExactly("t-1");
    assertThat(log.tradeNos(10)).isEmpty();
  }
}
