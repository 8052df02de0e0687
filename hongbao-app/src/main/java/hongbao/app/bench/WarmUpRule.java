package hongbao.app.bench;

/**
 * When a warm-up has settled, the same for every scenario: neither has the rate risen nor the
 * service's CPU per operation fallen by more than 3% against the best window so far, and the
 * service's compiler threads took at most {@value BenchCommand#JIT_SHARE_SETTLED} of its CPU, two
 * windows in a row, after at least three windows. CPU per operation is the steadier sign on a
 * shared machine; the rate is what a user sees; the compiler's share catches a JIT still at work
 * behind a rate and a CPU that look flat over a few short windows. Each caller bounds how many
 * windows it gives the rule.
 */
final class WarmUpRule {

  private double bestRate;
  private double bestMicros = Double.MAX_VALUE;
  private int flat;
  private int windows;

  /**
   * Takes one window; true once the warm-up has settled.
   *
   * @param serviceMicros the service's CPU µs per operation, 0 when it is not measured
   * @param compilerMicros the part of it its compiler threads took
   */
  boolean settledAfter(double rate, double serviceMicros, double compilerMicros) {
    windows++;
    boolean rising = rate > bestRate * 1.03;
    boolean falling = serviceMicros > 0 && serviceMicros < bestMicros * 0.97;
    boolean compiling =
        serviceMicros > 0 && compilerMicros / serviceMicros > BenchCommand.JIT_SHARE_SETTLED;
    flat = rising || falling || compiling ? 0 : flat + 1;
    bestRate = Math.max(bestRate, rate);
    if (serviceMicros > 0) {
      bestMicros = Math.min(bestMicros, serviceMicros);
    }
    return windows >= 3 && flat >= 2;
  }
}
