package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Runs the simulator over many seeds; a failing seed fails the build with the command that replays
 * it. {@code -Dhongbao.sim.seed=S} replays one seed, {@code -Dhongbao.sim.seeds=N} sets how many (a
 * soak: 100000), {@code -Dhongbao.sim.steps=N} how long each run is.
 */
class SimulationTest {

  private static final int SEEDS_DEFAULT = 2_000;
  private static final int STEPS_DEFAULT = 200;

  @Test
  void everySeed_passesEveryAudit() {
    int steps = Integer.getInteger("hongbao.sim.steps", STEPS_DEFAULT);
    String one = System.getProperty("hongbao.sim.seed");
    if (one != null) {
      var ledger = LedgerVariant.of(System.getProperty("hongbao.sim.ledger", "faithful"));
      SimulationResult result = Simulation.run(Long.parseLong(one), steps, ledger);
      assertThat(result.ok()).as(result.report()).isTrue();
      return;
    }
    int seeds = Integer.getInteger("hongbao.sim.seeds", SEEDS_DEFAULT);
    long first = Long.getLong("hongbao.sim.firstSeed", 1);
    for (long seed = first; seed < first + seeds; seed++) {
      SimulationResult result = Simulation.run(seed, steps);
      assertThat(result.ok()).as(result.report()).isTrue();
    }
  }
}
