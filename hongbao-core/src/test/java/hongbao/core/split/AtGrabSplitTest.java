package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AtGrabSplitTest {

  private static final long NO_CAP = SplitOptions.NO_CAP;

  @Test
  void nextShare_mapsTheRandomValueOntoOneToTwiceTheMean() {
    assertThat(AtGrabSplit.nextShare(10_000, 10, 0, NO_CAP)).isEqualTo(1);
    assertThat(AtGrabSplit.nextShare(10_000, 10, 1_999, NO_CAP)).isEqualTo(2_000);
    assertThat(AtGrabSplit.nextShare(10_000, 10, 2_000, NO_CAP)).isEqualTo(1);
    assertThat(AtGrabSplit.nextShare(10_000, 10, (1L << 31) - 1, NO_CAP))
        .isEqualTo(1 + ((1L << 31) - 1) % 2_000);
  }

  @Test
  void nextShare_forTheLastShare_takesTheRest() {
    assertThat(AtGrabSplit.nextShare(777, 1, 12_345, NO_CAP)).isEqualTo(777);
  }

  @Test
  void nextShare_leavesOneFenForEveryLaterShare() {
    // floor(2*12/10) = 2 would leave 10 fen for 9 shares: fine; 10 fen for 10 shares: only 1.
    assertThat(AtGrabSplit.nextShare(10, 10, 1, NO_CAP)).isEqualTo(1);
    // With 2 shares left the bound is floor(2M/2) = M, clamped to M - 1.
    assertThat(AtGrabSplit.nextShare(100, 2, 98, NO_CAP)).isEqualTo(99);
    assertThat(AtGrabSplit.nextShare(100, 2, 99, NO_CAP)).isEqualTo(1);
  }

  @Test
  void nextShare_withACap_keepsThisAndEveryLaterShareUnderIt() {
    // lo = max(1, 100 - 60*1) = 40, hi = min(100, 99, 60) = 60: 21 values.
    assertThat(AtGrabSplit.nextShare(100, 2, 0, 60)).isEqualTo(40);
    assertThat(AtGrabSplit.nextShare(100, 2, 20, 60)).isEqualTo(60);
    assertThat(AtGrabSplit.nextShare(100, 2, 21, 60)).isEqualTo(40);
  }

  @Test
  void nextShare_withARandomValueOutOfRange_isRejected() {
    assertThatThrownBy(() -> AtGrabSplit.nextShare(100, 2, -1, NO_CAP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0, 2^31)");
    assertThatThrownBy(() -> AtGrabSplit.nextShare(100, 2, 1L << 31, NO_CAP))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nextShare_agreesWithTheDocumentedFormulaComputedInDoublesAsLuaDoes() {
    SplittableRandom random = new SplittableRandom(2024);
    for (int i = 0; i < 200_000; i++) {
      int count = 1 + random.nextInt(i % 2 == 0 ? 20 : 100_000);
      long amount =
          i % 3 == 0
              ? random.nextLong(count, ShareBounds.MAX_AMOUNT_FEN + 1)
              : random.nextLong(count, Math.max(count + 1L, count * 4_000L));
      long cap =
          i % 4 == 0
              ? Math.max(Math.ceilDiv(amount, count), random.nextLong(1, amount + 1))
              : amount;
      long r = random.nextLong(AtGrabSplit.RANDOM_BOUND);
      assertThat(AtGrabSplit.nextShare(amount, count, r, cap))
          .as("M=%d N=%d r=%d cap=%d", amount, count, r, cap)
          .isEqualTo((long) luaNextShare(amount, count, r, cap));
    }
  }

  /** The Javadoc's formula, line by line, with only doubles and Lua 5.1's {@code %}. */
  private static double luaNextShare(double m, double n, double r, double cap) {
    if (n == 1) {
      return m;
    }
    double hi = Math.floor(2 * m / n);
    if (hi > m - (n - 1)) {
      hi = m - (n - 1);
    }
    if (hi > cap) {
      hi = cap;
    }
    double lo = 1;
    if (m - cap * (n - 1) > lo) {
      lo = m - cap * (n - 1);
    }
    double span = hi - lo + 1;
    return lo + (r - Math.floor(r / span) * span);
  }

  @Test
  void split_appliesNextShareToWhatIsLeft() {
    long[] shares = new AtGrabSplit(NO_CAP).split(10_000, 10, new SplittableRandom(9));
    SplittableRandom replay = new SplittableRandom(9);
    long left = 10_000;
    for (int i = 0; i < 10; i++) {
      assertThat(shares[i])
          .isEqualTo(AtGrabSplit.nextShare(left, 10 - i, replay.nextInt() >>> 1, NO_CAP));
      left -= shares[i];
    }
  }
}
