package hongbao.app.cli;

import hongbao.app.Config;
import hongbao.app.DataDir;
import hongbao.app.Hongbao;
import hongbao.app.settings.Settings;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Runs the service until interrupted. Ctrl-C runs the shutdown hook, which stops the HTTP server,
 * the workers and any embedded servers, leaving nothing behind.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    modelTransformer = ServeCommand.SettingsHelp.class,
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

  /**
   * Ends the help with every setting, written from {@link Settings} at run time: an annotation
   * could only hold a second, hand-written list.
   */
  static final class SettingsHelp implements CommandLine.IModelTransformer {
    private static final int HELP_WIDTH = 120;

    @Override
    public CommandSpec transform(CommandSpec spec) {
      // picocli reads the footer as a format string
      spec.usageMessage()
          // wide enough that an address pattern is not cut in the middle
          .width(HELP_WIDTH)
          .footerHeading("%nSettings (environment variables):%n")
          .footer(
              Settings.help().stream().map(line -> line.replace("%", "%%")).toArray(String[]::new));
      return spec;
    }
  }

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
