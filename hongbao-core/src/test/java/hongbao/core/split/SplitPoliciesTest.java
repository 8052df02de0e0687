package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SplitPoliciesTest {

  @Test
  void named_withAnUnknownName_failsListingTheKnownNames() {
    assertThatThrownBy(() -> SplitPolicies.named("random"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown split policy 'random'")
        .hasMessageContaining("double-mean")
        .hasMessageContaining("fixed");
  }

  @Test
  void named_ignoresCaseAndSurroundingSpaces() {
    assertThat(SplitPolicies.named(" Double-Mean ").name()).isEqualTo("double-mean");
  }

  @Test
  void named_withTheSmoothedOption_givesTheSmoothedDoubleMean() {
    SplitPolicy policy =
        SplitPolicies.named("double-mean", SplitOptions.DEFAULTS.withSmoothed(true));
    assertThat(policy.name()).isEqualTo("double-mean-smoothed");
  }

  @Test
  void defaultLucky_isAKnownPolicy() {
    assertThat(SplitPolicies.names()).contains(SplitPolicies.DEFAULT_LUCKY);
  }

  @Test
  void options_rejectANonPositiveCap() {
    assertThatThrownBy(() -> SplitOptions.DEFAULTS.withCapFen(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cap per share must be at least 1 fen");
  }

  @Test
  void options_rejectANegativeSpread() {
    assertThatThrownBy(() -> SplitOptions.DEFAULTS.withSpread(-0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spread must be between 0 and");
  }
}
