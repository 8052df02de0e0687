package hongbao.app.cli;

import hongbao.testkit.sim.LedgerVariant;
import hongbao.testkit.sim.Simulation;
import hongbao.testkit.sim.SimulationResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the seeded fault simulator (the same one as {@code SimulationTest}): replays a failing seed
 * exactly, or soaks many. Exit code 1 when a seed fails, with its report and replay command.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate the core from a seed with faults, auditing the books after every step.",
      "The real core services run over in-memory ports; a failing seed prints how to replay it."
    })
public final class SimulateCommand implements Callable<Integer> {

  /** Bounds a soak from the command line: more belongs in a CI job with the test's flag. */
  static final int SEEDS_MAX = 10_000_000;

  static final int STEPS_MAX = 1_000_000;

  @Option(names = "--seed", description = "the (first) seed (default ${DEFAULT-VALUE})")
  long seed = 1;

  @Option(
      names = "--steps",
      description = "steps per seed, 1.." + STEPS_MAX + " (default ${DEFAULT-VALUE})")
  int steps = 200;

  @Option(
      names = "--seeds",
      description = "how many seeds from --seed, 1.." + SEEDS_MAX + " (default ${DEFAULT-VALUE})")
  int seeds = 1;

  @Option(
      names = "--ledger",
      description =
          "faithful, or pays-twice: a planted bug the simulator must find (default ${DEFAULT-VALUE})")
  String ledger = "faithful";

  @Override
  public Integer call() {
    if (steps < 1 || steps > STEPS_MAX) {
      throw new IllegalArgumentException("--steps must be 1.." + STEPS_MAX + ": " + steps);
    }
    if (seeds < 1 || seeds > SEEDS_MAX) {
      throw new IllegalArgumentException("--seeds must be 1.." + SEEDS_MAX + ": " + seeds);
    }
    LedgerVariant variant = LedgerVariant.of(ledger);
    // The services log every repair and refused payout they meet; the report says what matters.
    ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("hongbao"))
        .setLevel(ch.qos.logback.classic.Level.ERROR);
    for (long s = seed; s < seed + seeds; s++) {
      SimulationResult result = Simulation.run(s, steps, variant);
      if (!result.ok()) {
        System.out.println(result.report());
        return 1;
      }
    }
    System.out.printf(
        "%d seed(s) from %d, %d steps each, ledger %s: every audit clean%n",
        seeds, seed, steps, variant.key());
    return 0;
  }
}
