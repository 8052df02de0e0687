package hongbao.core.split;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/** Equal shares. The amount must divide by the count: a FIXED packet never hides a remainder. */
public final class FixedSplit implements SplitPolicy {

  public static final String NAME = "fixed";

  private final long capFen;

  public FixedSplit(long capFen) {
    this.capFen = capFen;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long[] split(long amountFen, int count, RandomGenerator random) {
    ShareBounds.check(amountFen, count, capFen);
    if (amountFen % count != 0) {
      throw new IllegalArgumentException(
          "fixed split needs an amount divisible by the count: "
              + amountFen
              + " fen is not divisible by "
              + count);
    }
    long[] shares = new long[count];
    Arrays.fill(shares, amountFen / count);
    return ShareBounds.verified(NAME, shares, amountFen, count, capFen);
  }
}
