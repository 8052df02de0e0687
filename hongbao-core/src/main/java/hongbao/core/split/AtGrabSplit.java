package hongbao.core.split;

import java.util.random.RandomGenerator;

/**
 * WeChat's way: each share is computed when it is grabbed, from what is left, bounded by twice the
 * remaining mean. The grab Lua script computes {@link #nextShare} itself from a random value the
 * caller passes in, so this class is the reference the script is tested against; {@link #split}
 * applies it repeatedly to show (and test) the distribution a packet gets.
 *
 * <h2>The exact formula (for the Lua script)</h2>
 *
 * Inputs, all integers: {@code M} = fen left in the packet, {@code N} = shares left ({@code N >=
 * 1}, {@code N <= M <= cap*N}), {@code cap} = the largest share in fen (pass {@code M} or anything
 * larger when there is no cap), {@code r} = a uniform random integer in {@code [0, 2^31)} chosen by
 * the caller (in Java: {@code random.nextInt() >>> 1}).
 *
 * <pre>{@code
 * if N == 1 then share = M                      -- the last share takes the rest
 * else
 *   hi = floor(2*M / N)                         -- twice the remaining mean
 *   if hi > M - (N-1)   then hi = M - (N-1) end -- leave 1 fen for each later share
 *   if hi > cap         then hi = cap end
 *   lo = 1
 *   if M - cap*(N-1) > lo then lo = M - cap*(N-1) end  -- later shares must fit under the cap
 *   share = lo + (r % (hi - lo + 1))
 * end
 * }</pre>
 *
 * Why Lua's doubles get the same integers: every value is an integer below 2^53 ({@code 2*M <=
 * 2^51}, {@code r < 2^31}), so {@code +}, {@code -}, {@code *} and {@code %} are exact, and {@code
 * math.floor(2*M/N)} is exact too: a correctly rounded quotient of integers below 2^53 never rounds
 * up across an integer. {@code cap*(N-1)} may exceed 2^53 only when it is far above {@code M},
 * where the comparison's answer does not depend on the rounding. {@code r % span} has a modulo bias
 * of at most {@code span / 2^31} (below 10^-5 for any packet up to 20,000 fen per share).
 */
public final class AtGrabSplit implements SplitPolicy {

  public static final String NAME = "at-grab";

  /** The random value passed to {@link #nextShare} lies in {@code [0, RANDOM_BOUND)}. */
  public static final long RANDOM_BOUND = 1L << 31;

  private final long capFen;

  public AtGrabSplit(long capFen) {
    this.capFen = capFen;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The largest share in fen; {@link SplitOptions#NO_CAP} for none. */
  public long capFen() {
    return capFen;
  }

  /**
   * The share taken by the next grab; see the class comment for the exact formula.
   *
   * @param randomValue a uniform integer in {@code [0, 2^31)}
   * @throws IllegalArgumentException when the inputs break the preconditions
   */
  public static long nextShare(
      long remainingFen, int remainingCount, long randomValue, long capFen) {
    ShareBounds.check(remainingFen, remainingCount, capFen);
    if (randomValue < 0 || randomValue >= RANDOM_BOUND) {
      throw new IllegalArgumentException("random value must be in [0, 2^31), was " + randomValue);
    }
    if (remainingCount == 1) {
      return remainingFen;
    }
    long lo = DoubleMeanRule.lower(remainingFen, remainingCount, 1, capFen);
    long hi = DoubleMeanRule.upper(remainingFen, remainingCount, 1, capFen);
    return lo + randomValue % (hi - lo + 1);
  }

  @Override
  public long[] split(long amountFen, int count, RandomGenerator random) {
    ShareBounds.check(amountFen, count, capFen);
    long[] shares = new long[count];
    long left = amountFen;
    for (int i = 0; i < count; i++) {
      long share = nextShare(left, count - i, random.nextInt() >>> 1, capFen);
      shares[i] = share;
      left -= share;
    }
    return ShareBounds.verified(NAME, shares, amountFen, count, capFen);
  }
}
