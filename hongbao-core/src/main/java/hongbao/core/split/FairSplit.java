package hongbao.core.split;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Every position has the same distribution, so it does not matter when one grabs. The shares are
 * the gaps between {@code N-1} distinct cut points drawn uniformly from {@code 1 .. M-1}: every way
 * of writing {@code M} as an ordered sum of {@code N} positive integers is equally likely (a
 * uniform composition), which is exchangeable by construction.
 *
 * <p>When more than half of the possible points must be cut (amount close to the count), the points
 * left uncut are drawn instead, which keeps the rejection of repeated draws cheap. A cap is
 * enforced by {@link Excess#spreadAboveCap}, which moves fen to uniformly chosen positions: the
 * shares stay exchangeable, but are no longer exactly uniform over the capped compositions.
 */
public final class FairSplit implements SplitPolicy {

  public static final String NAME = "fair";

  private final long capFen;

  public FairSplit(long capFen) {
    this.capFen = capFen;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long[] split(long amountFen, int count, RandomGenerator random) {
    ShareBounds.check(amountFen, count, capFen);
    long[] cuts = cutPoints(amountFen - 1, count - 1, random);
    long[] shares = new long[count];
    long previous = 0;
    for (int i = 0; i < count - 1; i++) {
      shares[i] = cuts[i] - previous;
      previous = cuts[i];
    }
    shares[count - 1] = amountFen - previous;
    if (capFen < amountFen) {
      Excess.spreadAboveCap(shares, capFen, random);
    }
    return ShareBounds.verified(NAME, shares, amountFen, count, capFen);
  }

  /** {@code k} distinct points from {@code 1..points}, sorted, uniform over such subsets. */
  static long[] cutPoints(long points, int k, RandomGenerator random) {
    if (k == 0) {
      return new long[0];
    }
    if (k <= points / 2) {
      return distinctSorted(points, k, random);
    }
    // Here points < 2k + 2, small: walk them and keep those not drawn as "uncut".
    long[] uncut = distinctSorted(points, (int) (points - k), random);
    long[] cuts = new long[k];
    int next = 0;
    int u = 0;
    for (long p = 1; p <= points; p++) {
      if (u < uncut.length && uncut[u] == p) {
        u++;
      } else {
        cuts[next++] = p;
      }
    }
    return cuts;
  }

  /**
   * Draws uniformly with replacement and redraws only the repeats until {@code k} distinct values
   * remain. The kept set is the first {@code k} distinct values of an i.i.d. sequence, which is a
   * uniform {@code k}-subset by symmetry. With {@code k <= points/2} few rounds are needed.
   */
  private static long[] distinctSorted(long points, int k, RandomGenerator random) {
    long[] values = new long[k];
    long[] scratch = new long[k];
    int distinct = 0;
    while (distinct < k) {
      for (int i = distinct; i < k; i++) {
        values[i] = random.nextLong(1, points + 1);
      }
      sortUniform(values, scratch, points);
      distinct = 1;
      for (int i = 1; i < k; i++) {
        if (values[i] != values[distinct - 1]) {
          values[distinct++] = values[i];
        }
      }
    }
    return values;
  }

  /**
   * Sorts values in {@code 1..points} in expected linear time: the values are (nearly) uniform, so
   * a bucket per value leaves about one value per bucket. A general sort of 10,000 points was most
   * of a fair split's time.
   */
  static void sortUniform(long[] values, long[] scratch, long points) {
    int n = values.length;
    if (n < 64) {
      Arrays.sort(values);
      return;
    }
    // Multiplying by a positive constant rounds monotonically, so buckets keep the order.
    double perValue = n / (double) points;
    int[] starts = new int[n + 1];
    for (long v : values) {
      starts[bucket(v, perValue, n) + 1]++;
    }
    for (int b = 0; b < n; b++) {
      starts[b + 1] += starts[b];
    }
    int[] next = Arrays.copyOf(starts, n);
    for (long v : values) {
      scratch[next[bucket(v, perValue, n)]++] = v;
    }
    // Insertion sort within each bucket: expected O(1) values per bucket.
    for (int i = 1; i < n; i++) {
      long v = scratch[i];
      int j = i - 1;
      while (j >= 0 && scratch[j] > v) {
        scratch[j + 1] = scratch[j];
        j--;
      }
      scratch[j + 1] = v;
    }
    System.arraycopy(scratch, 0, values, 0, n);
  }

  private static int bucket(long value, double perValue, int n) {
    return Math.min(n - 1, (int) ((value - 1) * perValue));
  }
}
