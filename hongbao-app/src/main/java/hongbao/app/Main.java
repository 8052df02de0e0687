package hongbao.app;

import hongbao.app.cli.HongbaoCommand;
import picocli.CommandLine;

/** The {@code hongbao} command line. */
public final class Main {

  private Main() {}

  /**
   * A setting that is wrong or a port in use is one line saying so, not a stack trace; the trace
   * follows when HONGBAO_DEBUG is set. Other exceptions keep picocli's full report.
   */
  private static int startFailure(
      Exception failure, CommandLine command, CommandLine.ParseResult parsed) throws Exception {
    if (!(failure instanceof IllegalArgumentException)
        && !(failure instanceof IllegalStateException)) {
      throw failure;
    }
    command.getErr().println("hongbao: " + failure.getMessage());
    if (System.getenv("HONGBAO_DEBUG") != null) {
      failure.printStackTrace(command.getErr());
    }
    return 2;
  }

  public static void main(String[] args) {
    int exit =
        new CommandLine(new HongbaoCommand())
            .setExecutionExceptionHandler(Main::startFailure)
            .execute(args);
    if (exit != 0) {
      System.exit(exit);
    }
  }
}
