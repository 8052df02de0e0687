package hongbao.core.split;

import java.util.random.RandomGenerator;

/**
 * The seeds' double-mean rule: with {@code M} fen and {@code N} shares left, the next share is
 * drawn from {@code [lo, hi]} where {@code hi = min(floor(2M/N), M - min*(N-1), cap)} and {@code lo
 * = max(min, M - cap*(N-1))}. The two clamps keep every later share at least {@code min} and at
 * most {@code cap}; without a cap and with {@code M >= 2N} they never bind except for the
 * second-to-last share. {@code lo <= hi} whenever {@code min*N <= M <= cap*N}.
 */
final class DoubleMeanRule {

  private DoubleMeanRule() {}

  static long upper(long remainingFen, int remainingCount, long minFen, long capFen) {
    long hi = Math.floorDiv(2 * remainingFen, remainingCount);
    hi = Math.min(hi, remainingFen - minFen * (remainingCount - 1));
    return Math.min(hi, capFen);
  }

  static long lower(long remainingFen, int remainingCount, long minFen, long capFen) {
    long others = remainingCount - 1L;
    // cap * others would overflow for a huge (or absent) cap; it only binds when it is small.
    if (others == 0 || capFen >= Math.ceilDiv(remainingFen, others)) {
      return minFen;
    }
    return Math.max(minFen, remainingFen - capFen * others);
  }

  /**
   * Fills {@code shares} with the rule applied {@code N - 1} times; the last share takes the rest.
   */
  static void fill(
      long[] shares, long amountFen, long minFen, long capFen, RandomGenerator random) {
    int count = shares.length;
    long left = amountFen;
    for (int i = 0; i < count - 1; i++) {
      int remainingCount = count - i;
      long lo = lower(left, remainingCount, minFen, capFen);
      long hi = upper(left, remainingCount, minFen, capFen);
      long share = lo == hi ? lo : random.nextLong(lo, hi + 1);
      shares[i] = share;
      left -= share;
    }
    shares[count - 1] = left;
  }
}
