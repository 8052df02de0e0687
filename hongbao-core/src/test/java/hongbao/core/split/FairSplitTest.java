package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FairSplitTest {

  @Test
  void cutPoints_areDistinctSortedAndInRange_onBothSidesOfHalf() {
    SplittableRandom random = new SplittableRandom(11);
    for (long points : new long[] {1, 2, 9, 10, 99, 1_000}) {
      for (int k = 0; k <= Math.min(points, 600); k += 1 + k / 7) {
        long[] cuts = FairSplit.cutPoints(points, k, random);
        assertThat(cuts).hasSize(k);
        for (int i = 0; i < k; i++) {
          assertThat(cuts[i]).isBetween(1L, points);
          if (i > 0) {
            assertThat(cuts[i]).isGreaterThan(cuts[i - 1]);
          }
        }
      }
    }
  }

  @Test
  void split_ofFiveFenInThree_givesEveryCompositionEquallyOften() {
    // 5 = a + b + c with parts >= 1 has C(4, 2) = 6 compositions.
    FairSplit fair = new FairSplit(SplitOptions.NO_CAP);
    SplittableRandom random = new SplittableRandom(5);
    Map<String, Integer> seen = new HashMap<>();
    int runs = 60_000;
    for (int i = 0; i < runs; i++) {
      long[] s = fair.split(5, 3, random);
      seen.merge(s[0] + "+" + s[1] + "+" + s[2], 1, Integer::sum);
    }
    assertThat(seen).hasSize(6);
    // Expected 10,000 each; the standard error is about 91.
    assertThat(seen.values()).allSatisfy(n -> assertThat(n).isBetween(9_550, 10_450));
  }

  @Test
  void split_ofSevenFenInFive_usesTheUncutPathAndStaysUniform() {
    // 6 points, 4 cut (> half): 7 = five parts >= 1 has C(6, 4) = 15 compositions.
    FairSplit fair = new FairSplit(SplitOptions.NO_CAP);
    SplittableRandom random = new SplittableRandom(6);
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < 30_000; i++) {
      long[] s = fair.split(7, 5, random);
      seen.merge(Arrays.toString(s), 1, Integer::sum);
    }
    assertThat(seen).hasSize(15);
    assertThat(seen.values()).allSatisfy(n -> assertThat(n).isBetween(1_800, 2_200));
  }

  @Test
  void sortUniform_sortsLikeArraysSort_forUniformAndSkewedValues() {
    SplittableRandom random = new SplittableRandom(12);
    for (int n : new int[] {1, 63, 64, 65, 1_000, 10_000}) {
      for (long points : new long[] {n, 2L * n, 20_000_000L, ShareBounds.MAX_AMOUNT_FEN}) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
          // Every third array is skewed into the lowest tenth, to cover crowded buckets.
          long top = (n % 3 == 0) ? Math.max(1, points / 10) : points;
          values[i] = random.nextLong(1, top + 1);
        }
        long[] expected = values.clone();
        Arrays.sort(expected);
        FairSplit.sortUniform(values, new long[n], points);
        assertThat(values).containsExactly(expected);
      }
    }
  }
}
