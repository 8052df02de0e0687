package hongbao.core.split;

/**
 * Tuning of a split policy. Each policy reads only what applies to it.
 *
 * @param capFen the largest share in fen ({@link #NO_CAP} for none; WeChat caps at 20,000 fen)
 * @param smoothed double-mean only: give every share an equal base of amount / (count + 1) and
 *     spread only the rest with the rule, so shares differ less
 * @param spread normal only: the standard deviation of a share as a fraction of the mean share
 */
public record SplitOptions(long capFen, boolean smoothed, double spread) {

  public static final long NO_CAP = Long.MAX_VALUE;

  public static final double DEFAULT_SPREAD = 0.5;

  /** Above this the clamping at 1 fen dominates and "normal" stops meaning anything. */
  public static final double MAX_SPREAD = 10.0;

  public static final SplitOptions DEFAULTS = new SplitOptions(NO_CAP, false, DEFAULT_SPREAD);

  public SplitOptions {
    if (capFen < 1) {
      throw new IllegalArgumentException("cap per share must be at least 1 fen, was " + capFen);
    }
    if (!(spread >= 0 && spread <= MAX_SPREAD)) {
      throw new IllegalArgumentException(
          "spread must be between 0 and "
              + MAX_SPREAD
              + " (a fraction of the mean), was "
              + spread);
    }
  }

  public SplitOptions withCapFen(long cap) {
    return new SplitOptions(cap, smoothed, spread);
  }

  public SplitOptions withSmoothed(boolean smooth) {
    return new SplitOptions(capFen, smooth, spread);
  }

  public SplitOptions withSpread(double fraction) {
    return new SplitOptions(capFen, smoothed, fraction);
  }

  public boolean capped() {
    return capFen != NO_CAP;
  }
}
