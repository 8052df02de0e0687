package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.TestClock;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  private final MemoryFailureLog log = new MemoryFailureLog();
  private final RefusingAgain producer = new RefusingAgain();
  private final RewardFailures failures = failures();

  private RewardFailures failures() {
    var clock = new TestClock(Instant.ofEpochSecond(1_000));
    var list = new ArrayList<FailoverQueue>();
    for (VirtualQueue name : VirtualQueue.values()) {
      list.add(new FailoverQueue(name, producer, producer, 100, clock));
    }
    RewardType type =
        new RewardType(
            "VIP_PASS",
            RewardKind.COUPON,
            100,
            10,
            false,
            VirtualQueue.SPECIAL,
            "http://127.0.0.1:9/issue");
    RewardTypes types =
        new RewardTypes() {
          @Override
          public Optional<RewardType> find(String name) {
            return name.equals(type.type()) ? Optional.of(type) : Optional.empty();
          }

          @Override
          public RewardType put(RewardType put) {
            throw new UnsupportedOperationException();
          }

          @Override
          public List<RewardType> all() {
            return List.of(type);
          }
        };
    return new RewardFailures(log, new RewardQueues(list, RewardMetrics.NONE), types);
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
}
