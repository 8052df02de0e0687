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
   * A simulated 180 s round, most taps early (the arrival rate halves every 30 s): with the rule
   * the pool lasts into the round's last quarter, where a flat "always draw" would empty it in the
   * first seconds.
   */
  @Test
  void of_spreadsThePoolOverTheRound_whenMostTapsComeEarly() {
    var random = new SplittableRandom(7);
    long prizes = 20_000;
    long left = prizes;
    long taps = 0;
    long emptiedAtSecond = -1;
    long wonInFirstTenth = 0;
    for (int second = 0; second < 180; second++) {
      long arrivals = (long) (20_000 * Math.pow(0.5, second / 30.0));
      for (long i = 0; i < arrivals && left > 0; i++) {
        long nowMillis = second * 1_000L + i * 1_000L / arrivals;
        double p = WinChance.of(left, taps, nowMillis, 180_000 - nowMillis);
        taps++;
        if (random.nextDouble() < p) {
          left--;
          if (second < 18) {
            wonInFirstTenth++;
          }
        }
      }
      if (left == 0 && emptiedAtSecond < 0) {
        emptiedAtSecond = second;
      }
    }
    assertThat(wonInFirstTenth).isLessThan(prizes / 2);
    assertThat(emptiedAtSecond < 0 || emptiedAtSecond >= 135).isTrue();
    assertThat(left).isLessThan(prizes / 2);
  }
}
