package hongbao.core.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AmountTest {

  @Test
  void arithmetic_isExactInFen() {
    assertThat(Amount.fen(1999).plus(Amount.fen(1)).minus(Amount.fen(500)))
        .isEqualTo(Amount.fen(1500));
    assertThat(Amount.fen(3).times(7)).isEqualTo(Amount.fen(21));
  }

  @Test
  void amount_beyondTheExactRangeOfLuaNumbers_isRefused() {
    assertThatThrownBy(() -> Amount.fen(Amount.MAX_FEN + 1))
        .isInstanceOf(ArithmeticException.class);
    assertThatThrownBy(() -> Amount.fen(Amount.MAX_FEN).plus(Amount.fen(1)))
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void ordering_followsFen() {
    assertThat(Amount.fen(2)).isGreaterThan(Amount.fen(1));
    assertThat(Amount.fen(-1).isNegative()).isTrue();
    assertThat(Amount.ZERO.isPositive()).isFalse();
  }
}
