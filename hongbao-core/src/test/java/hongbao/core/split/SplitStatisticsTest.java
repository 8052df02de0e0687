package hongbao.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SplitStatisticsTest {

  @Test
  void summary_givesPerPositionMeanStddevMinAndMax() {
    SplitStatistics statistics = new SplitStatistics("test", 10, 2);
    statistics.add(new long[] {2, 8});
    statistics.add(new long[] {4, 6});
    statistics.add(new long[] {6, 4});

    SplitStatistics.Summary summary = statistics.summary();

    assertThat(summary.runs()).isEqualTo(3);
    SplitStatistics.Position first = summary.positions().get(0);
    assertThat(first.position()).isEqualTo(1);
    assertThat(first.mean()).isCloseTo(4.0, within(1e-9));
    assertThat(first.stddev()).isCloseTo(2.0, within(1e-9));
    assertThat(first.min()).isEqualTo(2);
    assertThat(first.max()).isEqualTo(6);
    assertThat(summary.positions().get(1).mean()).isCloseTo(6.0, within(1e-9));
  }

  @Test
  void bestLuck_goesToTheLargestShareAndTheEarliestPositionOnATie() {
    SplitStatistics statistics = new SplitStatistics("test", 10, 3);
    statistics.add(new long[] {5, 5, 0});
    statistics.add(new long[] {1, 1, 8});
    statistics.add(new long[] {2, 6, 2});
    statistics.add(new long[] {4, 2, 4});

    var positions = statistics.summary().positions();

    assertThat(positions.get(0).bestLuckShare()).isEqualTo(0.5);
    assertThat(positions.get(1).bestLuckShare()).isEqualTo(0.25);
    assertThat(positions.get(2).bestLuckShare()).isEqualTo(0.25);
  }

  @Test
  void sumAlwaysExact_turnsFalseOnceAPacketDoesNotSum() {
    SplitStatistics statistics = new SplitStatistics("test", 10, 2);
    statistics.add(new long[] {3, 7});
    assertThat(statistics.summary().sumAlwaysExact()).isTrue();
    statistics.add(new long[] {3, 6});
    assertThat(statistics.summary().sumAlwaysExact()).isFalse();
  }

  @Test
  void minShare_isTheSmallestShareOfAnyPosition() {
    SplitStatistics statistics = new SplitStatistics("test", 10, 2);
    statistics.add(new long[] {3, 7});
    statistics.add(new long[] {8, 2});
    assertThat(statistics.summary().minShare()).isEqualTo(2);
  }

  @Test
  void simulate_withTheSameSeed_givesTheSameSummary() {
    SplitPolicy policy = SplitPolicies.named("fair");
    assertThat(SplitStatistics.simulate(policy, 10_000, 10, 500, 42))
        .isEqualTo(SplitStatistics.simulate(policy, 10_000, 10, 500, 42));
  }

  @Test
  void simulate_ofAnImpossibleRequest_failsWithThePolicysMessage() {
    assertThatThrownBy(() -> SplitStatistics.simulate(SplitPolicies.named("fair"), 5, 10, 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("amount must be >= count");
  }

  @Test
  void simulate_withTooMuchWork_failsBeforeStarting() {
    assertThatThrownBy(
            () ->
                SplitStatistics.simulate(
                    SplitPolicies.named("fair"), 20_000_000, 10_000, 1_000_000, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("runs x count must be at most");
  }

  @Test
  void add_withTheWrongNumberOfShares_isRejected() {
    SplitStatistics statistics = new SplitStatistics("test", 10, 2);
    assertThatThrownBy(() -> statistics.add(new long[] {10}))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
