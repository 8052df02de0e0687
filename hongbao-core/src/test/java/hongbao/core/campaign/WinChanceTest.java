package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WinChanceTest {

  @Test
  void of_isBounded() {
    assertThat(WinChance.of(0, 10, 5_000, 60_000)).isZero();
    assertThat(WinChance.of(10, 0, 5_000, 60_000)).isEqualTo(1.0);
    assertThat(WinChance.of(10, 1_000_000, 5_000, 900)).isEqualTo(1.0);
    assertThat(WinChance.of(1, 1_000_000_000, 1_000, 600_000)).isEqualTo(WinChance.P_MIN);
    assertThat(WinChance.of(1_000_000, 10, 1_000, 60_000)).isEqualTo(1.0);
    // 1,000 taps in 10 s, 50 s to go: about 5,000 more taps for 500 prizes
    assertThat(WinChance.of(500, 1_000, 10_000, 50_000)).isEqualTo(0.1);
  }

  /**
   * A simulated 180 s round, most taps early (the arrival rate halves every 30 s), sampled as
   * {@link TapService} samples (every 500 ms or 256 taps): the pool is spent evenly over the round
   * and nearly all of it, where drawing on every tap would empty it in the first second.
   */
  @Test
  void of_spreadsThePoolOverTheRound_whenMostTapsComeEarly() {
    long prizes = 20_000;
    long[] wonPerTenth = simulate(prizes, 30, new SplittableRandom(7));
    long won = 0;
    for (long tenth : wonPerTenth) {
      assertThat(tenth).isBetween(prizes / 20, prizes / 5);
      won += tenth;
    }
    assertThat(won).isGreaterThan(prizes * 98 / 100);
  }

  /** Prizes won per tenth of a 180 s round whose arrival rate halves every {@code half} s. */
  static long[] simulate(long prizes, double half, SplittableRandom random) {
    long roundMillis = 180_000;
    long left = prizes;
    long taps = 0;
    long[] wonPerTenth = new long[10];
    long sampledAt = Long.MIN_VALUE;
    long sampledLeft = left;
    long sampledTaps = 0;
    long tapsSinceSample = 0;
    TapRate rate = TapRate.startingAt(0);
    for (int second = 0; second < 180; second++) {
      long arrivals = (long) (20_000 * Math.pow(0.5, second / half));
      for (long i = 0; i < arrivals; i++) {
        long now = second * 1_000L + i * 1_000L / arrivals;
        if (now - sampledAt >= TapService.PULSE_MILLIS
            || ++tapsSinceSample >= TapService.PULSE_TAPS) {
          sampledAt = now;
          sampledLeft = left;
          sampledTaps = taps;
          tapsSinceSample = 0;
          rate = rate.next(now, taps);
        }
        double p = WinChance.of(sampledLeft, sampledTaps, rate, now, roundMillis - now);
        taps++;
        if (left > 0 && random.nextDouble() < p) {
          left--;
          wonPerTenth[second / 18]++;
        }
      }
    }
    return wonPerTenth;
  }

  public static void main(String[] args) {
    System.out.println(java.util.Arrays.toString(simulate(20_000, 30, new SplittableRandom(7))));
  }
}
