package hongbao.core.campaign;

/**
 * A round's recent tap rate, estimated from samples of its tap count: the taps between the start of
 * the last window of at least {@value #WINDOW_MILLIS} ms and its end. Most taps of a rain come
 * early and the rate falls; the round's average would over-estimate the taps to come and leave
 * prizes unspent, the recent rate follows the fall. Immutable; {@link #next} gives the estimate
 * after one more sample.
 *
 * @param baseMillis where the current window starts
 * @param baseTaps the round's taps then
 * @param perMilli the rate of the last full window; negative until one has passed
 */
public record TapRate(long baseMillis, long baseTaps, double perMilli) {

  public static final long WINDOW_MILLIS = 1_000;

  /** No window has passed yet: the first is measured from the round's start. */
  public static TapRate startingAt(long roundStartMillis) {
    return new TapRate(roundStartMillis, 0, -1);
  }

  public TapRate next(long nowMillis, long taps) {
    long window = nowMillis - baseMillis;
    if (window < WINDOW_MILLIS) {
      return this;
    }
    return new TapRate(nowMillis, taps, (double) (taps - baseTaps) / window);
  }
}
