package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The contract every policy keeps, checked as properties over many seeds and sizes. */
class SplitPolicyContractTest {

  private static final long[][] SIZES = {
    {1, 1},
    {7, 1},
    {5, 5},
    {6, 5},
    {10, 9},
    {10_000, 10},
    {10_001, 7},
    {99_999, 333},
    {20_000_000, 10_000},
    {10_000, 10_000},
    {ShareBounds.MAX_AMOUNT_FEN, 1},
    {ShareBounds.MAX_AMOUNT_FEN, 3},
    {ShareBounds.MAX_AMOUNT_FEN - 1, 1_000},
  };

  static Stream<String> policies() {
    return SplitPolicies.names().stream();
  }

  /** Fixed needs a divisible amount: round each size down to one. */
  private static long amountFor(String policy, long amountFen, int count) {
    return policy.equals(FixedSplit.NAME) ? amountFen - amountFen % count : amountFen;
  }

  private static void assertValid(long[] shares, long amountFen, int count, long capFen) {
    assertThat(shares).hasSize(count);
    assertThat(Arrays.stream(shares).sum()).isEqualTo(amountFen);
    assertThat(Arrays.stream(shares).min().orElseThrow()).isGreaterThanOrEqualTo(1);
    assertThat(Arrays.stream(shares).max().orElseThrow()).isLessThanOrEqualTo(capFen);
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_acrossSeedsAndSizes_sumsExactlyWithEveryShareAtLeastOneFen(String name) {
    SplitPolicy policy = SplitPolicies.named(name);
    for (long[] size : SIZES) {
      int count = (int) size[1];
      long amount = amountFor(name, size[0], count);
      int seeds = count >= 1_000 ? 5 : 200;
      for (int seed = 0; seed < seeds; seed++) {
        long[] shares = policy.split(amount, count, new SplittableRandom(seed));
        assertValid(shares, amount, count, SplitOptions.NO_CAP);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_withCap_keepsEveryShareUnderTheCap(String name) {
    long[][] cases = { // amount, count, cap
      {100_000, 10, 12_000},
      {100_000, 10, 10_000},
      {2_000_000, 100, 20_000},
      {200_000, 100, 2_500},
      {1_000, 100, 10},
      {20_000_000, 10_000, 2_001},
      {7, 7, 1},
      {5, 1, 5},
    };
    for (long[] c : cases) {
      int count = (int) c[1];
      long amount = amountFor(name, c[0], count);
      SplitPolicy policy = SplitPolicies.named(name, SplitOptions.DEFAULTS.withCapFen(c[2]));
      for (int seed = 0; seed < 50; seed++) {
        assertValid(policy.split(amount, count, new SplittableRandom(seed)), amount, count, c[2]);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_whenAmountEqualsCapTimesCount_givesEveryShareTheCap(String name) {
    SplitPolicy policy = SplitPolicies.named(name, SplitOptions.DEFAULTS.withCapFen(20_000));
    long[] shares = policy.split(200_000, 10, new SplittableRandom(1));
    assertThat(shares).containsOnly(20_000);
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_whenAmountEqualsCount_givesOneFenEach(String name) {
    long[] shares = SplitPolicies.named(name).split(10_000, 10_000, new SplittableRandom(3));
    assertThat(shares).containsOnly(1);
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_withTheSameSeed_givesTheSameShares(String name) {
    SplitPolicy policy = SplitPolicies.named(name);
    for (int seed = 0; seed < 50; seed++) {
      long[] first = policy.split(10_000, 10, new SplittableRandom(seed));
      long[] second = policy.split(10_000, 10, new SplittableRandom(seed));
      assertThat(first).containsExactly(second);
    }
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_whenAmountBelowCount_failsWithAClearMessage(String name) {
    SplitPolicy policy = SplitPolicies.named(name);
    assertThatThrownBy(() -> policy.split(9, 10, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("amount must be >= count");
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_whenCapTimesCountBelowAmount_failsWithAClearMessage(String name) {
    SplitPolicy policy = SplitPolicies.named(name, SplitOptions.DEFAULTS.withCapFen(999));
    assertThatThrownBy(() -> policy.split(10_000, 10, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cap x count must be >= amount");
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_withNoShares_failsWithAClearMessage(String name) {
    SplitPolicy policy = SplitPolicies.named(name);
    assertThatThrownBy(() -> policy.split(100, 0, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("share count must be between 1 and");
  }

  @ParameterizedTest
  @MethodSource("policies")
  void split_aboveTheMaximumAmount_failsWithAClearMessage(String name) {
    SplitPolicy policy = SplitPolicies.named(name);
    assertThatThrownBy(
            () -> policy.split(ShareBounds.MAX_AMOUNT_FEN + 1, 1, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("above the maximum");
  }

  @ParameterizedTest
  @MethodSource("policies")
  void named_givesAPolicyThatReportsItsName(String name) {
    assertThat(SplitPolicies.named(name).name()).isEqualTo(name);
  }
}
