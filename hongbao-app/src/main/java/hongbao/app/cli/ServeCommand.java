package hongbao.app.cli;

import hongbao.app.Config;
import hongbao.app.Hongbao;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;

/**
 * Runs the service until interrupted. Ctrl-C runs the shutdown hook, which stops the HTTP server,
 * the workers and any embedded servers, leaving nothing behind.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the API (and embedded Redis and PostgreSQL unless HONGBAO_REDIS_URL and",
      "HONGBAO_JDBC_URL are set). Port: HONGBAO_PORT (default 8080)."
    })
public final class ServeCommand implements Callable<Integer> {

  @Override
  public Integer call() throws InterruptedException {
    Config config = Config.fromEnvironment();
    Hongbao service = Hongbao.start(config);
    var stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            Thread.ofPlatform()
                .name("shutdown")
                .unstarted(
                    () -> {
                      service.close();
                      stopped.countDown();
                    }));
    stopped.await();
    return 0;
  }
}
