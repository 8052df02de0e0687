package hongbao.app.bench;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * CPU time of each party of a run (service, Redis, PostgreSQL, load generator) between two samples.
 * A party is a set of processes found anew at each sample (PostgreSQL forks a process per
 * connection). A party whose processes are unknown (a remote Redis, say) is left out.
 */
final class CpuMeter {

  /**
   * The parties whose CPU a run reports. {@code OTHERS} is the rest of the machine's busy time
   * (other people's builds, say): not charged to grabs, but shown, because it is why the same
   * window runs slower on a shared box.
   */
  enum Party {
    SERVICE,
    /**
     * The service's JIT compiler threads: a part of {@code SERVICE}'s time, shown apart and never
     * added to the others, so that a window measured while the JIT still compiles shows it.
     */
    SERVICE_JIT,
    REDIS,
    POSTGRES,
    KAFKA,
    GENERATOR,
    OTHERS;

    String key() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this party's time is already counted in another party's. */
    boolean partOfAnother() {
      return this == SERVICE_JIT;
    }
  }

  /** How to find a party's processes, and whether their reaped children count. */
  private record Source(Supplier<List<Long>> pids, boolean children) {}

  private final Map<Party, Source> processes = new EnumMap<>(Party.class);

  /**
   * Adds a party. With {@code children}, the time of its reaped children counts too (PostgreSQL's
   * exited backends, Redis's rewrite children).
   */
  CpuMeter with(Party party, Supplier<List<Long>> pids, boolean children) {
    processes.put(party, new Source(pids, children));
    return this;
  }

  boolean measures(Party party) {
    return processes.containsKey(party);
  }

  Map<Party, List<Long>> pids() {
    var pids = new EnumMap<Party, List<Long>>(Party.class);
    processes.forEach((party, source) -> pids.put(party, source.pids().get()));
    return pids;
  }

  Sample sample() {
    var ticks = new EnumMap<Party, Long>(Party.class);
    var switches = new EnumMap<Party, Long>(Party.class);
    processes.forEach(
        (party, source) -> {
          long sum = 0;
          long switched = 0;
          for (long pid : source.pids().get()) {
            sum += ProcessCpu.ticks(pid, source.children());
            switched += ProcessCpu.contextSwitches(pid);
          }
          ticks.put(party, sum);
          switches.put(party, switched);
        });
    Source service = processes.get(Party.SERVICE);
    if (service != null) {
      long compiling = 0;
      for (long pid : service.pids().get()) {
        compiling += ProcessCpu.compilerTicks(pid);
      }
      ticks.put(Party.SERVICE_JIT, compiling);
    }
    long ours =
        ticks.entrySet().stream()
            .filter(e -> !e.getKey().partOfAnother())
            .mapToLong(Map.Entry::getValue)
            .sum();
    long machine = ProcessCpu.machineTicks();
    if (machine > 0) {
      ticks.put(Party.OTHERS, machine - ours);
    }
    return new Sample(System.nanoTime(), ticks, switches);
  }

  /** CPU ticks and context switches of every party at one moment. */
  record Sample(long nanos, Map<Party, Long> ticks, Map<Party, Long> switches) {

    /** What each party used from {@code earlier} to this sample. */
    Usage since(Sample earlier) {
      var switched = new EnumMap<Party, Long>(Party.class);
      switches.forEach(
          (party, now) ->
              switched.put(party, Math.max(0, now - earlier.switches.getOrDefault(party, now))));
      var seconds = new EnumMap<Party, Double>(Party.class);
      ticks.forEach(
          (party, now) ->
              seconds.put(
                  party,
                  Math.max(0, now - earlier.ticks.getOrDefault(party, now))
                      / (double) ProcessCpu.TICKS_PER_SECOND));
      return new Usage((nanos - earlier.nanos) / 1e9, seconds, switched);
    }
  }

  /**
   * CPU seconds and context switches per party over a wall-clock interval. The switches tell a
   * process woken for every request from one that finds a batch waiting each time it runs: the same
   * work costs the first more CPU.
   */
  record Usage(double wallSeconds, Map<Party, Double> cpuSeconds, Map<Party, Long> switches) {

    /** Context switches per operation, per party. */
    Map<Party, Double> switchesPer(long operations) {
      var per = new EnumMap<Party, Double>(Party.class);
      switches.forEach((party, n) -> per.put(party, operations == 0 ? 0 : n / (double) operations));
      return per;
    }

    /** Microseconds of CPU per operation, per party. */
    Map<Party, Double> microsPer(long operations) {
      var micros = new EnumMap<Party, Double>(Party.class);
      cpuSeconds.forEach(
          (party, s) -> {
            if (party != Party.OTHERS) {
              micros.put(party, operations == 0 ? 0 : s * 1e6 / operations);
            }
          });
      return micros;
    }

    /** The share of one core each party kept busy. */
    Map<Party, Double> cores() {
      var cores = new EnumMap<Party, Double>(Party.class);
      cpuSeconds.forEach((party, s) -> cores.put(party, wallSeconds <= 0 ? 0 : s / wallSeconds));
      return cores;
    }
  }
}
