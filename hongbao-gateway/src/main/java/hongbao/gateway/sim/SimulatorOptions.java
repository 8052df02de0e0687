package hongbao.gateway.sim;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to run the simulated gateway.
 *
 * @param port 0 for any free port
 * @param book the append-only file of settlements; it survives restarts
 * @param latency the typical time to answer; each answer takes between half and one and a half
 * @param hold how long a request that "times out" is held before it is dropped or completed; longer
 *     than the clients' timeout
 */
public record SimulatorOptions(
    String host,
    int port,
    String secret,
    Path book,
    Faults faults,
    Duration latency,
    Duration hold) {

  public SimulatorOptions {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port " + port);
    }
    if (latency.isNegative() || hold.isNegative()) {
      throw new IllegalArgumentException("latency and hold must not be negative");
    }
  }
}
