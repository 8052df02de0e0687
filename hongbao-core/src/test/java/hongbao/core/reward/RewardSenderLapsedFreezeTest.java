package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.TestClock;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A reservation answered LAPSED (an edit's freeze ended, neither let go nor lifted by a resize):
 * whether the edit committed is for the books to say. A sender with the books opens the budget at
 * their version (the resize, when they hold a newer one), lets go of what ended and reserves; one
 * without them, such as a reward SDK inside another service, must not guess: it answers 503 and
 * leaves the freeze to a sender with the books or the campaign closer. The real keys' side of this
 * is {@code RedisRewardBudgetTest} and {@code CampaignEditTest}; the budget here answers LAPSED on
 * demand.
 */
class RewardSenderLapsedFreezeTest {

  private static final RewardType TEA = RewardDoubles.TEA;

  private static final RewardRequest REQUEST =
      new RewardRequest("t1", "u1", "c1", "rain", "TEA", 1, "");

  private final TestClock clock = new TestClock(Instant.ofEpochSecond(1_000));
  private final RewardDoubles.MemoryBudget budget = new RewardDoubles.MemoryBudget();
  private final TokenStore tokenStore = new RewardDoubles.MemoryTokens();
  private final RewardBook book = RewardDoubles.emptyBook();
  private final List<Reward> queued = Collections.synchronizedList(new ArrayList<>());

  private RewardSender sender(FundedBudgets books) {
    return RewardDoubles.asyncSender(
        RewardDoubles.typesOf(TEA),
        budget,
        books,
        new RewardDoubles.MemoryClaims(),
        tokenStore,
        RewardDoubles.queuesOn(
            RewardDoubles.producer(
                "recording",
                (reward, attempt) -> {
                  queued.add(reward);
                  return CompletableFuture.completedFuture(null);
                })),
        book,
        clock);
  }

  @Test
  void withoutTheBooks_aLapsedFreezeIsAnOutage_andNothingIsLetGo() {
    budget.answersFirst.add(new RewardBudget.Reservation.LapsedFreeze());
    assertThatThrownBy(() -> sender(FundedBudgets.NONE).send(REQUEST))
        .isInstanceOf(Unavailable.class);
    assertThat(budget.thawsOfEnded).isZero();
    assertThat(budget.opened).isEmpty();
    assertThat(budget.trades).isEmpty();
    assertThat(queued).isEmpty();
  }

  @Test
  void withTheBooks_theStoredVersionIsArmed_theEndedFreezeLetGo_andTheRewardReserved() {
    budget.answersFirst.add(new RewardBudget.Reservation.LapsedFreeze());
    FundedBudgets books = id -> Optional.of(new FundedBudgets.Funded(Amount.fen(8_000), 2));
    assertThat(sender(books).send(REQUEST)).isInstanceOf(SendOutcome.Accepted.class);
    assertThat(budget.opened).containsExactly(2);
    assertThat(budget.thawsOfEnded).isEqualTo(1);
    assertThat(budget.trades).containsOnlyKeys("t1");
    assertThat(queued).extracting(Reward::tradeNo).containsExactly("t1");
  }

  @Test
  void aSecondLapseRightAfterTheSettle_isAnOutage() {
    budget.answersFirst.add(new RewardBudget.Reservation.LapsedFreeze());
    budget.answersFirst.add(new RewardBudget.Reservation.LapsedFreeze());
    FundedBudgets books = id -> Optional.of(new FundedBudgets.Funded(Amount.fen(8_000), 2));
    assertThatThrownBy(() -> sender(books).send(REQUEST)).isInstanceOf(Unavailable.class);
    assertThat(budget.trades).isEmpty();
    assertThat(queued).isEmpty();
  }
}
