package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A synchronous send that fails undoes its reservation, so a replay of its tradeNo that comes while
 * it is still issuing must not be answered ACCEPTED ("on a queue: it will be credited exactly
 * once"): nothing would queue it, and with the trade released the reconciler would have nothing to
 * name. The replay is told to try again (503) instead.
 *
 * <p>The interleaving is a client retrying on its own timeout while the first (synchronous) call
 * waits for a slow issuer that then times out. The budget here is an in-memory stand-in with the
 * reservation semantics of {@code budget_reserve.lua} / {@code budget_release.lua} (first answer by
 * tradeNo and digest, marked for a synchronous send; release forgets the trade).
 */
class RewardSenderReplayTest {

  private static final RewardType TEA =
      new RewardType("TEA", RewardKind.COUPON, 10, 1, false, VirtualQueue.SPECIAL, "http://issuer");

  private static final RewardRequest REQUEST =
      new RewardRequest("t1", "u1", "c1", "rain", "TEA", 1, "");

  /** Fresh for each test: the stores the sender under test works on. */
  private final MemoryBudget budget = new MemoryBudget();

  private final List<Reward> queued = Collections.synchronizedList(new ArrayList<>());
  private final RewardDoubles.MemoryClaims claims = new RewardDoubles.MemoryClaims();
  private final TokenStore tokenStore = new MemoryTokens();
  private final RewardBook book = RewardDoubles.emptyBook();

  private RewardSender sender(Issuer issuer) {
    return new RewardSender(
        new OneType(),
        new PlainTokens(),
        budget,
        FundedBudgets.NONE,
        claims,
        tokenStore,
        recordingQueues(queued),
        new RewardService(book, issuer, tokenStore, RewardMetrics.NONE),
        book,
        new RewardDoubles.AlwaysOn(),
        Clock.systemUTC());
  }

  @Test
  void aReplayAnsweredAccepted_whileTheSyncSendIsInFlight_isNotLostWhenTheSyncSendFails() {
    var sender = new AtomicReference<RewardSender>();
    var retry = new AtomicReference<Object>();
    Issuer slowThenDown =
        (reward, type) -> {
          // The caller's own timeout fired: it sends the same request again (default mode).
          try {
            retry.set(sender.get().send(REQUEST));
          } catch (Unavailable refused) {
            retry.set(refused);
          }
          throw new Issuer.IssuerUnavailable("read timed out");
        };
    sender.set(sender(slowThenDown));

    SendOutcome first = sender.get().sendSync(REQUEST);

    assertThat(first).isInstanceOf(SendOutcome.IssuerFailed.class);
    assertThat(retry.get())
        .as("the retry is told to try again, not that the reward is on a queue")
        .isInstanceOf(Unavailable.class);
    assertThat(queued).isEmpty();
    assertThat(budget.trades).as("the failed send undid its reservation").doesNotContainKey("t1");
    assertThat(tokenStore.holds(REQUEST.at(Instant.EPOCH))).isFalse();
    assertThat(claims.byTradeNo)
        .as("the tradeNo stays its campaign's: a retry there is the same request")
        .containsEntry("t1", "c1");
  }

  /**
   * The retry comes the moment the failing send's reservation is gone, as an asynchronous request:
   * it is a send of its own, accepted, and the rest of the undo must leave it whole — its claim on
   * the tradeNo (or another campaign could accept the tradeNo again) and its token copy.
   */
  @Test
  void aRetryAcceptedRightAfterTheFailedSyncSendReleased_keepsItsClaimAndItsTokenCopy() {
    var sender = new AtomicReference<RewardSender>();
    var retry = new AtomicReference<SendOutcome>();
    budget.afterRelease = () -> retry.set(sender.get().send(REQUEST));
    Issuer down =
        (reward, type) -> {
          throw new Issuer.IssuerUnavailable("read timed out");
        };
    sender.set(sender(down));

    SendOutcome first = sender.get().sendSync(REQUEST);

    assertThat(first).isInstanceOf(SendOutcome.IssuerFailed.class);
    assertThat(retry.get()).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(budget.trades).containsKey("t1");
    assertThat(queued).extracting(Reward::tradeNo).containsExactly("t1");
    assertThat(claims.byTradeNo)
        .as("the retry's campaign holds the tradeNo")
        .containsEntry("t1", "c1");
    assertThat(claims.claim("t1", "c2")).isEqualTo(TradeClaims.Claim.OTHER);
    assertThat(tokenStore.holds(REQUEST.at(Instant.EPOCH))).as("the retry's token copy").isTrue();
  }

  /** budget_reserve.lua / budget_release.lua by tradeNo, without the allowance arithmetic. */
  private static final class MemoryBudget implements RewardBudget {
    final Map<String, String[]> trades = new HashMap<>();

    /** Runs once, right after the next release, outside the lock. */
    Runnable afterRelease = () -> {};

    @Override
    public synchronized void open(String campaignId, Amount budget, int version) {}

    @Override
    public synchronized Reservation reserve(
        Reward reward, Amount cost, String token, boolean sync) {
      String[] prior = trades.get(reward.tradeNo());
      if (prior != null) {
        if (!prior[0].equals(reward.digest())) {
          return new Reservation.Conflict();
        }
        return prior[2].equals("S")
            ? new Reservation.SyncReplay(prior[1])
            : new Reservation.Replay(prior[1]);
      }
      trades.put(reward.tradeNo(), new String[] {reward.digest(), token, sync ? "S" : "A"});
      return new Reservation.Reserved();
    }

    @Override
    public void release(Reward reward) {
      synchronized (this) {
        trades.remove(reward.tradeNo());
      }
      Runnable after = afterRelease;
      afterRelease = () -> {};
      after.run();
    }

    @Override
    public BudgetState state(String campaignId) {
      return null;
    }

    @Override
    public Map<String, Trade> trades(String campaignId) {
      return Map.of();
    }
  }

  private static final class OneType implements RewardTypes {
    @Override
    public Optional<RewardType> find(String type) {
      return Optional.of(TEA).filter(t -> t.type().equals(type));
    }

    @Override
    public RewardType put(RewardType type) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<RewardType> all() {
      return List.of(TEA);
    }
  }

  private static final class PlainTokens implements RewardTokens {
    @Override
    public String seal(Reward reward) {
      return reward.userId() + "~" + reward.tradeNo();
    }

    @Override
    public Optional<Reward> open(String token, String userId) {
      return Optional.empty();
    }

    @Override
    public Optional<Reward> openAny(String token) {
      return Optional.empty();
    }
  }

  private static final class MemoryTokens implements TokenStore {
    private final Map<String, String> copies = Collections.synchronizedMap(new HashMap<>());

    @Override
    public void save(Reward reward, String token) {
      copies.put(reward.tradeNo(), token);
    }

    @Override
    public boolean holds(Reward reward) {
      return copies.containsKey(reward.tradeNo());
    }

    @Override
    public void delete(Reward reward) {
      copies.remove(reward.tradeNo());
    }

    @Override
    public List<String> pending(String userId, int max) {
      return List.copyOf(copies.values());
    }
  }

  private static RewardQueues recordingQueues(List<Reward> queued) {
    RewardProducer producer =
        new RewardProducer() {
          @Override
          public String name() {
            return "memory";
          }

          @Override
          public CompletionStage<Void> send(Reward reward, int attempt) {
            queued.add(reward);
            return CompletableFuture.completedFuture(null);
          }
        };
    return RewardDoubles.queuesOn(producer);
  }
}
