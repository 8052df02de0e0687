package hongbao.app.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Core pinning with {@code taskset}: {@code --pin 0:1} puts the service, Redis and PostgreSQL on
 * CPU 0 and the load generator (and redis-benchmark) on CPU 1, so that the generator never takes
 * CPU from what it measures. Either side is a {@code taskset} CPU list ({@code 0-2,5}). A drain of
 * a payout backlog, which the generator only watches, spreads the servers over both sides.
 */
record Pinning(String serviceCpus, String generatorCpus) {

  private static final long TIMEOUT_SECONDS = 10;

  static Pinning parse(String text) {
    String[] sides = text.split(":", -1);
    if (sides.length != 2 || !valid(sides[0]) || !valid(sides[1])) {
      throw new IllegalArgumentException(
          "--pin wants SERVICE_CPUS:GENERATOR_CPUS, e.g. 0:1 or 0-2:3, not '" + text + "'");
    }
    return new Pinning(sides[0], sides[1]);
  }

  private static boolean valid(String cpus) {
    return cpus.matches("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");
  }

  /** The prefix that starts a command on the service's CPUs. */
  List<String> serviceCommandPrefix() {
    return List.of("taskset", "-c", serviceCpus);
  }

  /** The prefix that starts a command on the generator's CPUs. */
  List<String> generatorCommandPrefix() {
    return List.of("taskset", "-c", generatorCpus);
  }

  /** Moves every thread of these running processes onto {@code cpus}. */
  static void pin(List<Long> pids, String cpus) throws IOException, InterruptedException {
    for (long pid : pids) {
      var command = new ArrayList<>(List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException("taskset failed for pid " + pid + ": " + output.trim());
      }
    }
  }
}
