package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The simulator must find a bug when there is one: over a ledger that pays a task again when it is
 * delivered again, some seed fails, and its replay fails the same way at the same step.
 */
class PlantedBugTest {

  private static final int SEEDS_MAX = 200;
  private static final int STEPS = 200;

  @Test
  void aLedgerThatPaysTwiceOnRedelivery_failsASeed_andTheReplayReproducesIt() {
    SimulationResult failed = null;
    for (long seed = 1; seed <= SEEDS_MAX && failed == null; seed++) {
      SimulationResult result = Simulation.run(seed, STEPS, LedgerVariant.PAYS_TWICE);
      if (!result.ok()) {
        failed = result;
      }
    }

    assertThat(failed).as("a seed of %d finds the planted bug", SEEDS_MAX).isNotNull();
    System.out.println("planted bug found: " + failed.report());
    assertThat(failed.failure()).containsAnyOf("paid 2 times", "escrow holds");
    assertThat(failed.replay())
        .contains("-Dhongbao.sim.seed=" + failed.seed())
        .contains("-Dhongbao.sim.ledger=pays-twice")
        .contains("./hongbao simulate --seed " + failed.seed());
    SimulationResult replayed = Simulation.run(failed.seed(), STEPS, LedgerVariant.PAYS_TWICE);
    assertThat(replayed).isEqualTo(failed);
    assertThat(Simulation.run(failed.seed(), STEPS).ok())
        .as("the same seed over the faithful ledger passes: the bug, not the seed, fails it")
        .isTrue();
  }
}
