package hongbao.core.campaign;

/**
 * The chance that a tap draws a prize, chosen so that a round's pool lasts the round instead of
 * emptying in its first second.
 *
 * <p>The rule: {@code p = left / expectedTaps}, where {@code expectedTaps = rate × remaining} and
 * {@code rate} is the round's recent tap rate ({@link TapRate}: taps over the last window of a
 * second or more; the average since the start until one window has passed). Every instance counts
 * taps in the sub-pools, so the rate is the whole round's. The pool then empties at about the
 * round's end if taps keep coming at the average rate: it drains in proportion to the taps. Bounds:
 * {@code p} is 1 in the round's last second (whatever is left is given away) and when no tap was
 * counted yet, never above 1, and never below {@value #P_MIN} while prizes are left, so a tap burst
 * that inflates the rate estimate cannot starve the rest of the round completely. The estimate uses
 * at least one second of elapsed time, so the first taps of a round see a rate that is not
 * infinite.
 */
public final class WinChance {

  public static final double P_MIN = 0.0001;

  private static final long SECOND_MILLIS = 1_000;

  private WinChance() {}

  /** With the round's average rate (taps so far over the time elapsed). */
  public static double of(long left, long taps, long elapsedMillis, long remainingMillis) {
    double rate = (double) taps / Math.max(elapsedMillis, SECOND_MILLIS);
    return of(left, taps, rate, remainingMillis);
  }

  /** With the recent rate when a window of it has passed ({@link TapRate}), else the average. */
  public static double of(
      long left, long taps, TapRate recent, long elapsedMillis, long remainingMillis) {
    return recent.perMilli() < 0
        ? of(left, taps, elapsedMillis, remainingMillis)
        : of(left, taps, recent.perMilli(), remainingMillis);
  }

  private static double of(long left, long taps, double perMilli, long remainingMillis) {
    if (left <= 0) {
      return 0;
    }
    if (remainingMillis <= SECOND_MILLIS || taps <= 0) {
      return 1;
    }
    double expected = perMilli * remainingMillis;
    return Math.max(P_MIN, Math.min(1.0, left / expected));
  }
}
