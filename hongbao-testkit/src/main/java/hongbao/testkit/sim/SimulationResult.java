package hongbao.testkit.sim;

import java.util.List;

/**
 * How a seed's run ended. A failure names its step, what did not hold, the steps before it, and the
 * one command that replays it.
 */
public record SimulationResult(
    long seed,
    int steps,
    LedgerVariant ledger,
    boolean ok,
    int failedStep,
    String failure,
    List<String> trace) {

  public SimulationResult {
    trace = List.copyOf(trace);
  }

  static SimulationResult passed(long seed, int steps, LedgerVariant ledger) {
    return new SimulationResult(seed, steps, ledger, true, 0, null, List.of());
  }

  static SimulationResult failed(
      long seed, int steps, LedgerVariant ledger, int step, Throwable failure, List<String> trace) {
    return new SimulationResult(seed, steps, ledger, false, step, failure.toString(), trace);
  }

  /** The commands that replay this seed exactly. */
  public String replay() {
    boolean planted = ledger != LedgerVariant.FAITHFUL;
    return "mvn -B -o -pl hongbao-testkit -am verify -Dtest=SimulationTest"
        + " -Dsurefire.failIfNoSpecifiedTests=false -Dhongbao.sim.seed=%d -Dhongbao.sim.steps=%d"
            .formatted(seed, steps)
        + (planted ? " -Dhongbao.sim.ledger=" + ledger.key() : "")
        + "\n  or: ./hongbao simulate --seed %d --steps %d".formatted(seed, steps)
        + (planted ? " --ledger " + ledger.key() : "");
  }

  /** The failure report: what, where, the trace, and the replay command. */
  public String report() {
    if (ok) {
      return "seed %d: %d steps, every audit clean".formatted(seed, steps);
    }
    return "seed %d failed at step %d of %d: %s%n  last steps:%n    %s%n  replay: %s"
        .formatted(seed, failedStep, steps, failure, String.join("\n    ", trace), replay());
  }
}
