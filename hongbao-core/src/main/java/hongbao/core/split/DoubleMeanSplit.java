package hongbao.core.split;

import java.util.random.RandomGenerator;

/**
 * The seeds' double-mean rule, drawn at send time: with {@code M} fen and {@code N} shares left,
 * the next share is uniform in {@code [1, floor(2M/N)]} (clamped so later shares keep at least 1
 * fen and at most the cap), the last share takes the rest. Every position has the same expected
 * share (the bound is twice the remaining mean), but the spread grows towards the end: see
 * docs/splits.md.
 *
 * <p>Smoothed (the seeds' N+1 trick): every share first gets {@code base = floor(M/(N+1))}; the
 * rest, {@code M - N*base} (the (N+1)th part plus the rounding remainder), is spread over the N
 * shares with the same rule, where an extra may be 0 because the base already gives the 1 fen.
 */
public final class DoubleMeanSplit implements SplitPolicy {

  public static final String NAME = "double-mean";
  public static final String SMOOTHED_NAME = "double-mean-smoothed";

  private final long capFen;
  private final boolean smoothed;

  public DoubleMeanSplit(long capFen, boolean smoothed) {
    this.capFen = capFen;
    this.smoothed = smoothed;
  }

  @Override
  public String name() {
    return smoothed ? SMOOTHED_NAME : NAME;
  }

  @Override
  public long[] split(long amountFen, int count, RandomGenerator random) {
    ShareBounds.check(amountFen, count, capFen);
    long[] shares = new long[count];
    if (!smoothed) {
      DoubleMeanRule.fill(shares, amountFen, 1, capFen, random);
    } else {
      long base = amountFen / (count + 1L);
      long rest = amountFen - base * count;
      DoubleMeanRule.fill(shares, rest, base >= 1 ? 0 : 1, capFen - base, random);
      for (int i = 0; i < count; i++) {
        shares[i] += base;
      }
    }
    return ShareBounds.verified(name(), shares, amountFen, count, capFen);
  }
}
