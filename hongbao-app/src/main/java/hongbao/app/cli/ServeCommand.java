package hongbao.app.cli;

import hongbao.app.Config;
import hongbao.app.DataDir;
import hongbao.app.Hongbao;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the service until interrupted. Ctrl-C runs the shutdown hook, which stops the HTTP server,
 * the workers and any embedded servers, leaving nothing behind.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the API, on embedded Redis and PostgreSQL unless configured.",
      "The embedded servers are used unless HONGBAO_REDIS_URL and HONGBAO_JDBC_URL are set.",
      "Port: HONGBAO_PORT (default 8080). The embedded servers, the dev JWT secret and the",
      "receipt keys keep their data in HONGBAO_DATA_DIR (default ./.hongbao-data)."
    })
public final class ServeCommand implements Callable<Integer> {

  @Option(
      names = "--fresh",
      description =
          "start empty: remove the embedded data and dev secret of HONGBAO_DATA_DIR first")
  boolean fresh;

  @Override
  public Integer call() throws InterruptedException {
    Config config = Config.fromEnvironment();
    // Only the embedded default keeps data here; with both servers outside (a deployment, the
    // bench's child, a test's) nothing is written to a directory nobody asked for.
    boolean embedded = config.redisUrl() == null || config.jdbcUrl() == null;
    DataDir dataDir = embedded ? DataDir.from(System.getenv()) : null;
    if (fresh && dataDir != null) {
      dataDir.clear();
    }
    Hongbao service = Hongbao.start(config, dataDir);
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
