package hongbao.app.cli;

import hongbao.gateway.sim.Faults;
import hongbao.gateway.sim.GatewaySimulator;
import hongbao.gateway.sim.SimulatorOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.random.RandomGeneratorFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the payment gateway simulator in its own process, so that its faults are real network faults
 * to the service. Prints {@code gateway-sim listening on port N} once it serves, which is how a
 * parent that asked for port 0 learns the port.
 */
@Command(
    name = "gateway-sim",
    mixinStandardHelpOptions = true,
    description = {
      "Run a payment gateway simulator with its own durable book.",
      "Daily statements at GET /v1/statements/yyyy-MM-dd; the secret is HONGBAO_GATEWAY_SECRET",
      "(random if unset)."
    })
public final class GatewaySimCommand implements Callable<Integer> {

  /** The line a parent process waits for; the port follows it. */
  public static final String READY_LINE = "gateway-sim listening on port ";

  @Option(names = "--port", defaultValue = "8090", description = "port (0: any free one)")
  int port;

  @Option(names = "--host", defaultValue = "127.0.0.1")
  String host;

  @Option(names = "--book", defaultValue = "gateway-book.csv", description = "the durable book")
  Path book;

  @Option(names = "--error-rate", defaultValue = "0", description = "SYSTEM_ERROR, nothing done")
  double errorRate;

  @Option(names = "--timeout-rate", defaultValue = "0", description = "no answer in time")
  double timeoutRate;

  @Option(names = "--pay-then-error-rate", defaultValue = "0", description = "pays, then errs")
  double payThenErrorRate;

  @Option(names = "--fail-rate", defaultValue = "0", description = "refuses (retryable or not)")
  double failRate;

  @Option(names = "--duplicate-callback-rate", defaultValue = "0", description = "calls back twice")
  double duplicateCallbackRate;

  @Option(names = "--latency-ms", defaultValue = "50", description = "typical time to answer")
  long latencyMillis;

  @Option(
      names = "--hold-ms",
      defaultValue = "10000",
      description = "how long a timed-out request is held; above the clients' timeout")
  long holdMillis;

  @Option(names = "--seed", description = "seed of the fault draws (random if unset)")
  Long seed;

  @Option(names = "--exit-with-parent", description = "exit when the parent process exits")
  boolean exitWithParent;

  @Override
  public Integer call() throws InterruptedException {
    String secret = System.getenv("HONGBAO_GATEWAY_SECRET");
    if (secret == null || secret.isBlank()) {
      byte[] bytes = new byte[24];
      new SecureRandom().nextBytes(bytes);
      secret = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      System.out.println(
          "gateway-sim: HONGBAO_GATEWAY_SECRET unset; this run's secret is " + secret);
    }
    var options =
        new SimulatorOptions(
            host,
            port,
            secret,
            book,
            new Faults(errorRate, timeoutRate, payThenErrorRate, failRate, duplicateCallbackRate),
            Duration.ofMillis(latencyMillis),
            Duration.ofMillis(holdMillis));
    long seedValue = seed != null ? seed : new SecureRandom().nextLong();
    Vertx vertx = Vertx.vertx();
    GatewaySimulator simulator =
        GatewaySimulator.start(
            vertx,
            options,
            Clock.systemUTC(),
            RandomGeneratorFactory.of("L64X128MixRandom").create(seedValue));
    var stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            Thread.ofPlatform()
                .name("gateway-sim-shutdown")
                .unstarted(
                    () -> {
                      simulator.close();
                      vertx.close().await();
                      stopped.countDown();
                    }));
    if (exitWithParent) {
      // A parent killed with -9 cannot stop its children; they notice and stop themselves.
      ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(0)));
    }
    System.out.println(READY_LINE + simulator.port() + " (seed " + seedValue + ")");
    System.out.flush();
    stopped.await();
    return 0;
  }
}
