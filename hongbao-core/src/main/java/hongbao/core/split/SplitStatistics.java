package hongbao.core.split;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What many packets split by one policy look like, position by position: the mean, standard
 * deviation, smallest and largest share of each grab order, and how often each position had the
 * best luck (the largest share; a tie goes to the earliest position, as in WeChat's 手气最佳). Also
 * whether every packet summed exactly and the smallest share seen anywhere. Pure computation:
 * callers print it.
 */
public final class SplitStatistics {

  /** Bounds a simulation's work: runs x count. */
  public static final long MAX_DRAWS = 500_000_000L;

  private final String policy;
  private final long amountFen;
  private final int count;
  private final double[] mean;
  private final double[] squares;
  private final long[] min;
  private final long[] max;
  private final long[] bestLuck;
  private int runs;
  private boolean sumAlwaysExact = true;
  private long minShare = Long.MAX_VALUE;

  public SplitStatistics(String policy, long amountFen, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("share count must be at least 1, was " + count);
    }
    this.policy = policy;
    this.amountFen = amountFen;
    this.count = count;
    this.mean = new double[count];
    this.squares = new double[count];
    this.min = new long[count];
    this.max = new long[count];
    this.bestLuck = new long[count];
    Arrays.fill(min, Long.MAX_VALUE);
    Arrays.fill(max, Long.MIN_VALUE);
  }

  /**
   * Splits {@code runs} packets with one random stream seeded by {@code seed} and collects them.
   *
   * @throws IllegalArgumentException for an impossible request or too much work
   */
  public static Summary simulate(
      SplitPolicy policy, long amountFen, int count, int runs, long seed) {
    if (runs < 1) {
      throw new IllegalArgumentException("runs must be at least 1, was " + runs);
    }
    if ((long) runs * count > MAX_DRAWS) {
      throw new IllegalArgumentException(
          "runs x count must be at most " + MAX_DRAWS + ", was " + (long) runs * count);
    }
    SplittableRandom random = new SplittableRandom(seed);
    SplitStatistics statistics = new SplitStatistics(policy.name(), amountFen, count);
    for (int run = 0; run < runs; run++) {
      statistics.add(policy.split(amountFen, count, random));
    }
    return statistics.summary();
  }

  /** Adds one packet's shares, in grab order. */
  public void add(long[] shares) {
    if (shares.length != count) {
      throw new IllegalArgumentException("expected " + count + " shares, got " + shares.length);
    }
    runs++;
    long sum = 0;
    int best = 0;
    for (int i = 0; i < count; i++) {
      long share = shares[i];
      sum += share;
      // Welford's update: stable for millions of runs, unlike a running sum of squares.
      double delta = share - mean[i];
      mean[i] += delta / runs;
      squares[i] += delta * (share - mean[i]);
      min[i] = Math.min(min[i], share);
      max[i] = Math.max(max[i], share);
      if (share > shares[best]) {
        best = i;
      }
    }
    bestLuck[best]++;
    sumAlwaysExact &= sum == amountFen;
    for (long share : shares) {
      minShare = Math.min(minShare, share);
    }
  }

  /** The statistics so far. Standard deviations are of the sample (divided by runs - 1). */
  public Summary summary() {
    List<Position> positions = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      double variance = runs > 1 ? squares[i] / (runs - 1) : 0;
      positions.add(
          new Position(
              i + 1,
              runs > 0 ? mean[i] : 0,
              Math.sqrt(variance),
              runs > 0 ? min[i] : 0,
              runs > 0 ? max[i] : 0,
              runs > 0 ? (double) bestLuck[i] / runs : 0));
    }
    return new Summary(
        policy, amountFen, count, runs, sumAlwaysExact, runs > 0 ? minShare : 0, positions);
  }

  /** One grab order's statistics; {@code position} counts from 1. */
  public record Position(
      int position, double mean, double stddev, long min, long max, double bestLuckShare) {}

  /** The statistics of a set of runs. */
  public record Summary(
      String policy,
      long amountFen,
      int count,
      int runs,
      boolean sumAlwaysExact,
      long minShare,
      List<Position> positions) {

    public Summary {
      positions = List.copyOf(positions);
    }
  }
}
