package hongbao.app.cli;

import hongbao.app.reward.IssuerSimulator;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the downstream issuer simulator until interrupted. */
@Command(
    name = "issuer-sim",
    mixinStandardHelpOptions = true,
    description = {
      "Run a downstream coupon/item issuer for drills.",
      "POST / issues once per tradeNo, refuses above its capacity (429), fails at random (503) and",
      "answers after a latency; GET / shows what it saw."
    })
public final class IssuerSimCommand implements Callable<Integer> {

  @Option(names = "--port", description = "port on 127.0.0.1 (default ${DEFAULT-VALUE})")
  int port = 9090;

  @Option(
      names = "--capacity",
      description = "issues per second before 429 (default ${DEFAULT-VALUE})")
  long capacity = 2_000;

  @Option(
      names = "--error-rate",
      description = "share of calls answered 503 (default ${DEFAULT-VALUE})")
  double errorRate = 0;

  @Option(
      names = "--latency",
      description = "milliseconds before each answer (default ${DEFAULT-VALUE})")
  long latencyMillis = 0;

  @Option(names = "--seed", description = "seed of the random failures (default ${DEFAULT-VALUE})")
  long seed = 1;

  @Override
  public Integer call() throws InterruptedException {
    var simulator =
        IssuerSimulator.start(
            new IssuerSimulator.Settings(
                port, capacity, errorRate, Duration.ofMillis(latencyMillis)),
            Clock.systemUTC(),
            seed);
    System.out.println("issuer simulator on " + simulator.url());
    var stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            Thread.ofPlatform()
                .unstarted(
                    () -> {
                      simulator.close();
                      stopped.countDown();
                    }));
    stopped.await();
    return 0;
  }
}
