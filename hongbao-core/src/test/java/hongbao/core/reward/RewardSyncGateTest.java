package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A synchronous send issues as the consumers do: a fused type is refused before its issuer is
 * called, and the type's rate holds for it (a short wait for a token, a refusal past {@link
 * RewardSender#SYNC_RATE_WAIT_MILLIS}). A refused send takes its reservation back and claims
 * nothing, so the same request succeeds once the type can be issued again.
 */
class RewardSyncGateTest {

  private static final RewardType TEA = RewardDoubles.TEA;

  private static final RewardRequest REQUEST =
      new RewardRequest("t1", "u1", "c1", "rain", "TEA", 1, "");

  private final RewardDoubles.MemoryBudget budget = new RewardDoubles.MemoryBudget();
  private final RewardDoubles.MemoryClaims claims = new RewardDoubles.MemoryClaims();
  private final TokenStore tokenStore = new RewardDoubles.MemoryTokens();

  /** A book that records each issue as new. */
  private final RewardBook book =
      RewardDoubles.bookAnswering(Map.of("recordIssued", args -> RewardBook.Credit.DONE));

  private final AtomicInteger issued = new AtomicInteger();
  private final List<Duration> slept = new ArrayList<>();

  /** The type as the sender reads it; a test swaps it to fuse or mend it. */
  private RewardType type = TEA;

  /** The throttle's answers in order (milliseconds to wait; 0 = taken), then 0 for good. */
  private final Deque<Long> waits = new ArrayDeque<>();

  /** Whether the throttle's Redis is down. */
  private boolean throttleDown;

  /** What happens while the sender waits for a token. */
  private Runnable duringWait = () -> {};

  private final Issuer issuer =
      (reward, t) -> {
        issued.incrementAndGet();
        return new Issuer.Issue.Issued();
      };

  private final RewardSender sender =
      new RewardSender(
          new RewardTypes() {
            @Override
            public Optional<RewardType> find(String name) {
              return Optional.of(type).filter(t -> t.type().equals(name));
            }

            @Override
            public RewardType put(RewardType t) {
              throw new UnsupportedOperationException();
            }

            @Override
            public List<RewardType> all() {
              return List.of(type);
            }
          },
          new RewardDoubles.PlainTokens(),
          budget,
          FundedBudgets.NONE,
          claims,
          tokenStore,
          RewardDoubles.queuesOn(new RewardDoubles.FakeProducer("memory")),
          new RewardService(book, issuer, tokenStore, RewardMetrics.NONE),
          book,
          new RewardDoubles.AlwaysOn(),
          (t, permits) -> {
            if (throttleDown) {
              throw new Unavailable("redis", "throttle down", null);
            }
            return waits.isEmpty() ? 0 : waits.poll();
          },
          duration -> {
            slept.add(duration);
            duringWait.run();
          },
          Clock.systemUTC());

  @Test
  void aFusedType_isRefusedBeforeItsIssuerIsCalled_andTheRequestWorksOnceMended() {
    type = fused(true);

    assertThatThrownBy(() -> sender.sendSync(REQUEST))
        .isInstanceOfSatisfying(
            RejectedException.class, e -> assertThat(e.rejection()).isEqualTo(Rejection.DISABLED))
        .hasMessageContaining("TEA is fused");
    assertThat(issued).hasValue(0);
    assertThat(budget.trades).as("the reservation taken back").isEmpty();

    type = fused(false);
    assertThat(sender.sendSync(REQUEST)).isInstanceOf(SendOutcome.Credited.class);
    assertThat(issued).hasValue(1);
  }

  @Test
  void aQueuedSendOfAFusedType_isStillAccepted_toWaitOnItsQueue() {
    type = fused(true);

    assertThat(sender.send(REQUEST)).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(issued).hasValue(0);
  }

  @Test
  void aTypeAtItsRate_holdsASyncSendForItsToken() {
    waits.addAll(List.of(300L, 400L));

    assertThat(sender.sendSync(REQUEST)).isInstanceOf(SendOutcome.Credited.class);
    assertThat(slept).containsExactly(Duration.ofMillis(300), Duration.ofMillis(400));
    assertThat(issued).hasValue(1);
  }

  @Test
  void aTypeFarPastItsRate_refusesASyncSend_withNothingReserved_untilATokenIsThere() {
    waits.addAll(List.of(600L, 600L));

    assertThatThrownBy(() -> sender.sendSync(REQUEST))
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("TEA is issued at its rate");
    assertThat(slept).containsExactly(Duration.ofMillis(600));
    assertThat(issued).hasValue(0);
    assertThat(budget.trades).isEmpty();

    assertThat(sender.sendSync(REQUEST)).isInstanceOf(SendOutcome.Credited.class);
    assertThat(issued).hasValue(1);
  }

  @Test
  void aTypeFusedWhileASyncSendWaitsForItsToken_isRefused() {
    waits.add(200L);
    duringWait = () -> type = fused(true);

    assertThatThrownBy(() -> sender.sendSync(REQUEST))
        .isInstanceOfSatisfying(
            RejectedException.class, e -> assertThat(e.rejection()).isEqualTo(Rejection.DISABLED));
    assertThat(slept).containsExactly(Duration.ofMillis(200));
    assertThat(issued).hasValue(0);
    assertThat(budget.trades).isEmpty();
  }

  @Test
  void aThrottleThatCannotBeReached_refusesASyncSend_andGivesItsReservationBack() {
    throttleDown = true;

    assertThatThrownBy(() -> sender.sendSync(REQUEST))
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("throttle down");
    assertThat(issued).hasValue(0);
    assertThat(budget.trades).as("the reservation taken back").isEmpty();
    assertThat(claims.byTradeNo).as("nothing claimed").isEmpty();
  }

  private static RewardType fused(boolean fused) {
    return new RewardType(
        TEA.type(),
        TEA.kind(),
        TEA.ratePerSecond(),
        TEA.burst(),
        fused,
        TEA.queue(),
        TEA.issuerUrl());
  }
}
