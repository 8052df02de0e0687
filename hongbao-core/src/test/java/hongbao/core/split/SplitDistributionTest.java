package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.split.SplitStatistics.Position;
import hongbao.core.split.SplitStatistics.Summary;
import org.junit.jupiter.api.Test;

/**
 * Statistical checks with fixed seeds, at 100.00 CNY in 10 shares over 40,000 packets. Bounds are
 * about five standard errors wide, so a correct policy passes for any seed with overwhelming
 * probability, while a positional bias of a few percent fails.
 */
class SplitDistributionTest {

  private static final long AMOUNT = 10_000;
  private static final int COUNT = 10;
  private static final int RUNS = 40_000;
  private static final double MEAN = (double) AMOUNT / COUNT;

  private static Summary simulate(String policy, long seed) {
    return SplitStatistics.simulate(SplitPolicies.named(policy), AMOUNT, COUNT, RUNS, seed);
  }

  @Test
  void fair_givesEveryPositionTheSameMeanSpreadAndBestLuck() {
    // A uniform composition of M into N parts: sd = sqrt((M-N)(M-1)(N-1) / (N^2 (N+1)))
    double expectedSd =
        Math.sqrt((double) (AMOUNT - COUNT) * (AMOUNT - 1) * (COUNT - 1) / (COUNT * COUNT * 11.0));
    for (long seed : new long[] {1, 2, 3}) {
      for (Position p : simulate("fair", seed).positions()) {
        assertThat(p.mean())
            .as("mean of position %d", p.position())
            .isBetween(MEAN - 25, MEAN + 25);
        assertThat(p.stddev())
            .as("stddev of position %d", p.position())
            .isBetween(expectedSd - 30, expectedSd + 30);
        assertThat(p.bestLuckShare())
            .as("best luck of position %d", p.position())
            .isBetween(0.1 - 0.008, 0.1 + 0.008);
      }
    }
  }

  @Test
  void normal_givesEveryPositionTheSameMeanAndSpread() {
    for (long seed : new long[] {1, 2}) {
      Summary summary = simulate("normal", seed);
      for (Position p : summary.positions()) {
        assertThat(p.mean()).isBetween(MEAN - 15, MEAN + 15);
        assertThat(p.stddev()).isBetween(0.47 * MEAN, 0.53 * MEAN);
        assertThat(p.bestLuckShare()).isBetween(0.1 - 0.008, 0.1 + 0.008);
      }
    }
  }

  @Test
  void doubleMean_givesEveryPositionTheSameMean() {
    for (String policy : new String[] {"double-mean", "double-mean-smoothed", "at-grab"}) {
      for (long seed : new long[] {1, 2}) {
        for (Position p : simulate(policy, seed).positions()) {
          assertThat(p.mean())
              .as("%s mean of position %d", policy, p.position())
              .isBetween(MEAN - 25, MEAN + 25);
        }
      }
    }
  }

  @Test
  void doubleMean_spreadsLaterSharesWider() {
    var positions = simulate("double-mean", 7).positions();
    // The first share is uniform on [1, 2000]: sd = sqrt((2000^2 - 1) / 12) = 577.
    assertThat(positions.get(0).stddev()).isBetween(565.0, 590.0);
    for (int i = 1; i < COUNT - 1; i++) {
      assertThat(positions.get(i).stddev()).isGreaterThan(positions.get(i - 1).stddev());
    }
    assertThat(positions.get(COUNT - 1).bestLuckShare())
        .isGreaterThan(positions.get(0).bestLuckShare() + 0.01);
  }

  @Test
  void smoothed_keepsSharesCloserThanThePlainRule() {
    Summary plain = simulate("double-mean", 5);
    Summary smoothed = simulate("double-mean-smoothed", 5);
    for (int i = 0; i < COUNT; i++) {
      assertThat(smoothed.positions().get(i).stddev())
          .isLessThan(plain.positions().get(i).stddev() / 5);
    }
  }
}
