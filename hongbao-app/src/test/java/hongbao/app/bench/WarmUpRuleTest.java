package hongbao.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WarmUpRuleTest {

  @Test
  void flatWindows_settleOnTheThird_afterTwoInARow() {
    var rule = new WarmUpRule();

    assertThat(rule.settledAfter(1_000, 100, 1)).isFalse();
    assertThat(rule.settledAfter(1_010, 99, 1)).isFalse();
    assertThat(rule.settledAfter(1_005, 100, 0)).isTrue();
  }

  @Test
  void aRisingRate_orAFallingCpu_startsTheCountAgain() {
    var rule = new WarmUpRule();
    rule.settledAfter(1_000, 100, 1);
    rule.settledAfter(1_000, 100, 1);

    assertThat(rule.settledAfter(1_100, 100, 1)).as("rate up 10%").isFalse();
    assertThat(rule.settledAfter(1_100, 90, 1)).as("CPU down 10%").isFalse();
    assertThat(rule.settledAfter(1_100, 90, 1)).isFalse();
    assertThat(rule.settledAfter(1_100, 90, 1)).isTrue();
  }

  @Test
  void aBusyCompiler_keepsItUnsettled_however_flatTheRest() {
    var rule = new WarmUpRule();
    for (int w = 0; w < 10; w++) {
      assertThat(rule.settledAfter(1_000, 100, 6)).as("window %d", w).isFalse();
    }
    rule.settledAfter(1_000, 100, 5);
    assertThat(rule.settledAfter(1_000, 100, 5)).as("5%: settled").isTrue();
  }

  @Test
  void withoutTheServicesCpu_theRateDecides() {
    var rule = new WarmUpRule();
    rule.settledAfter(1_000, 0, 0);
    rule.settledAfter(1_000, 0, 0);

    assertThat(rule.settledAfter(1_000, 0, 0)).isTrue();
  }
}
