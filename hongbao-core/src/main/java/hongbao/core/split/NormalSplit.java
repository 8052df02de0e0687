package hongbao.core.split;

import java.util.random.RandomGenerator;

/**
 * Shares near the mean, as the @lcode algorithm in the seeds aims for: each position draws {@code
 * mean + spread*mean*g} with {@code g} standard normal, clamped to {@code [1, cap]}. Doubles live
 * only inside the draw; the fen are then dealt exactly:
 *
 * <ol>
 *   <li>every share gets 1 fen; the other {@code M - N} fen are shared in proportion to each draw's
 *       part above 1 fen, rounded down;
 *   <li>the few fen lost to rounding go one each to distinct, uniformly chosen positions (and in
 *       the rare case floating point rounding overshoots, single fen come back from uniformly
 *       chosen positions);
 *   <li>anything above the cap moves to uniformly chosen positions below it.
 * </ol>
 *
 * Every step treats positions alike, so the shares are exchangeable like {@link FairSplit}'s; the
 * resulting standard deviation is close to {@code spread * mean} when clamping is rare.
 */
public final class NormalSplit implements SplitPolicy {

  public static final String NAME = "normal";

  private final long capFen;
  private final double spread;

  public NormalSplit(long capFen, double spread) {
    this.capFen = capFen;
    this.spread = spread;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long[] split(long amountFen, int count, RandomGenerator random) {
    ShareBounds.check(amountFen, count, capFen);
    double mean = (double) amountFen / count;
    double sd = spread * mean;
    double top = Math.min(capFen, amountFen);
    double[] weights = new double[count];
    double total = 0;
    for (int i = 0; i < count; i++) {
      double draw = Math.min(top, Math.max(1, mean + sd * random.nextGaussian()));
      weights[i] = draw - 1;
      total += weights[i];
    }
    long above = amountFen - count;
    long[] shares = new long[count];
    long dealt = 0;
    for (int i = 0; i < count; i++) {
      // With every draw clamped at 1 fen there is nothing to weigh by: share equally.
      double part = total > 0 ? above * (weights[i] / total) : (double) above / count;
      long extra = Math.min(above, (long) Math.floor(part));
      shares[i] = 1 + extra;
      dealt += extra;
    }
    long rest = above - dealt;
    if (rest > 0) {
      Excess.addOneFenEach(shares, rest, random);
    } else if (rest < 0) {
      Excess.takeOneFenEach(shares, -rest, random);
    }
    if (capFen < amountFen) {
      Excess.spreadAboveCap(shares, capFen, random);
    }
    return ShareBounds.verified(NAME, shares, amountFen, count, capFen);
  }
}
