package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DoubleMeanSplitTest {

  @Test
  void split_neverDrawsAboveTwiceTheRemainingMean() {
    DoubleMeanSplit policy = new DoubleMeanSplit(SplitOptions.NO_CAP, false);
    for (int seed = 0; seed < 2_000; seed++) {
      long[] shares = policy.split(10_000, 10, new SplittableRandom(seed));
      long left = 10_000;
      for (int i = 0; i < shares.length - 1; i++) {
        assertThat(shares[i]).isBetween(1L, Math.floorDiv(2 * left, shares.length - i));
        left -= shares[i];
      }
      assertThat(shares[shares.length - 1]).isEqualTo(left);
    }
  }

  @Test
  void split_withTwoFenPerShare_stillLeavesOneFenForEveryLaterShare() {
    DoubleMeanSplit policy = new DoubleMeanSplit(SplitOptions.NO_CAP, false);
    for (int seed = 0; seed < 2_000; seed++) {
      assertThat(
              Arrays.stream(policy.split(20, 10, new SplittableRandom(seed))).min().orElseThrow())
          .isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  void split_smoothed_givesEveryShareAtLeastTheBase() {
    DoubleMeanSplit policy = new DoubleMeanSplit(SplitOptions.NO_CAP, true);
    long base = 10_000 / 11;
    for (int seed = 0; seed < 2_000; seed++) {
      long[] shares = policy.split(10_000, 10, new SplittableRandom(seed));
      assertThat(Arrays.stream(shares).min().orElseThrow()).isGreaterThanOrEqualTo(base);
    }
  }

  @Test
  void split_smoothed_keepsSharesWithinTwiceTheExtraMeanOfTheBase() {
    DoubleMeanSplit policy = new DoubleMeanSplit(SplitOptions.NO_CAP, true);
    long base = 10_000 / 11;
    long rest = 10_000 - 10 * base;
    for (int seed = 0; seed < 2_000; seed++) {
      long[] shares = policy.split(10_000, 10, new SplittableRandom(seed));
      for (int i = 0; i < shares.length - 1; i++) {
        assertThat(shares[i]).isLessThanOrEqualTo(base + 2 * rest / (shares.length - i));
      }
    }
  }
}
