package hongbao.core.campaign;

/**
 * The chance that a tap draws a prize, chosen so that a round's pool lasts the round instead of
 * emptying in its first second.
 *
 * <p>The rule: {@code p = left / expectedTaps}, where {@code expectedTaps = rate × remaining} and
 * {@code rate = taps so far / elapsed}, the round's own average tap rate (every instance counts
 * taps in the sub-pools, so the rate is the whole round's). The pool then empties at about the
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

  public static double of(long left, long taps, long elapsedMillis, long remainingMillis) {
    if (left <= 0) {
      return 0;
    }
    if (remainingMillis <= SECOND_MILLIS || taps <= 0) {
      return 1;
    }
    double rate = (double) taps / Math.max(elapsedMillis, SECOND_MILLIS);
    double expected = rate * remainingMillis;
    return Math.max(P_MIN, Math.min(1.0, left / expected));
  }
}
