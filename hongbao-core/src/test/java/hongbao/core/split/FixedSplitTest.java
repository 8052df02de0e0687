package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FixedSplitTest {

  @Test
  void split_givesEqualShares() {
    assertThat(new FixedSplit(SplitOptions.NO_CAP).split(10_000, 10, new SplittableRandom(1)))
        .containsOnly(1_000);
  }

  @Test
  void split_whenTheAmountDoesNotDivide_failsWithAClearMessage() {
    assertThatThrownBy(
            () -> new FixedSplit(SplitOptions.NO_CAP).split(10_001, 10, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("divisible");
  }
}
