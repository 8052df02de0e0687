package hongbao.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rain's arrival curve: most taps early, in order, all within the round. */
class RainRunTest {

  @Test
  void arrivals_bringMostTapsEarly_inOrder_withinTheSpan() {
    int taps = 10_000;
    long span = 40_000_000_000L;
    var due = RainRun.arrivals(taps, span);
    int firstQuarter = 0;
    int lastQuarter = 0;
    long previous = -1;
    for (int i = 0; i < taps; i++) {
      long t = due.applyAsLong(i);
      assertThat(t).isGreaterThanOrEqualTo(previous).isBetween(0L, span);
      previous = t;
      if (t < span / 4) {
        firstQuarter++;
      } else if (t >= span * 3 / 4) {
        lastQuarter++;
      }
    }
    // (1 − e^−1) / (1 − e^−4) = 64.4% of the taps in the first quarter; (e^−3 − e^−4) / (1 − e^−4)
    // = 3.2% in the last.
    assertThat(firstQuarter).isBetween(6_400, 6_480);
    assertThat(lastQuarter).isBetween(300, 340);
  }
}
