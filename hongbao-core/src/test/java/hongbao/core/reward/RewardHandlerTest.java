package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class RewardHandlerTest {

  private static final RewardType OPEN = RewardDoubles.TEA;

  private static final Reward REWARD =
      new Reward("t1", "u1", "c1", "rain", "TEA", Amount.fen(1), "", Instant.EPOCH);

  @Test
  void typeFusedWhileItsEventWaitsForAToken_parksTheEvent_andNeverCallsTheIssuer()
      throws Exception {
    var current = new AtomicReference<>(OPEN);
    RewardTypes types =
        new RewardTypes() {
          @Override
          public Optional<RewardType> find(String type) {
            return Optional.of(current.get()).filter(t -> t.type().equals(type));
          }

          @Override
          public RewardType put(RewardType type) {
            current.set(type);
            return type;
          }

          @Override
          public List<RewardType> all() {
            return List.of(current.get());
          }
        };
    // The bucket is empty for a while, then has a token: without the fuse the event is issued.
    var acquisitions = new AtomicInteger();
    TypeThrottle throttle = (type, permits) -> acquisitions.incrementAndGet() <= 3 ? 100 : 0;
    var issued = new AtomicInteger();
    Issuer issuer =
        (reward, type) -> {
          issued.incrementAndGet();
          return new Issuer.Issue.Issued();
        };
    var parked = new ArrayList<Reward>();
    // The operator fuses the type while the worker sleeps, waiting for a token.
    RewardHandler.Sleeper sleeper =
        duration ->
            current.set(
                new RewardType(
                    "TEA", RewardKind.COUPON, 10, 1, true, VirtualQueue.SPECIAL, "http://issuer"));
    var handler =
        new RewardHandler(
            types,
            throttle,
            new RewardService(
                RewardDoubles.emptyBook(),
                issuer,
                new RewardDoubles.NoTokens(),
                RewardMetrics.NONE),
            new Lot(parked),
            new RewardDoubles.NoFailures(),
            noQueues(),
            new RewardDoubles.AlwaysOn(),
            RewardMetrics.NONE,
            sleeper,
            new ConsumeRate(1_000_000, Clock.systemUTC(), duration -> {}));

    assertThat(handler.handle(REWARD, 0)).isEqualTo(RewardHandler.Handling.PARKED);
    assertThat(parked).containsExactly(REWARD);
    assertThat(issued).as("not issued after the fuse").hasValue(0);
  }

  /** Queues that must not be used: the event is neither issued nor re-queued. */
  private static RewardQueues noQueues() {
    return RewardDoubles.queuesOn(
        RewardDoubles.producer(
            "unused",
            (reward, attempt) -> {
              throw new AssertionError("re-queued " + reward);
            }));
  }

  private record Lot(List<Reward> parked) implements ParkingLot {
    @Override
    public void park(Reward reward, int attempt) {
      parked.add(reward);
    }

    @Override
    public List<Parked> peek(String type, int max) {
      return List.of();
    }

    @Override
    public void remove(String type, List<Parked> parked) {}

    @Override
    public boolean leaseUnparking(String type, String owner, Duration lease) {
      return true;
    }

    @Override
    public long size() {
      return parked.size();
    }
  }
}
