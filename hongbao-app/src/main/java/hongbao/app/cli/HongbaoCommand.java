package hongbao.app.cli;

import hongbao.app.bench.BenchCommand;
import hongbao.app.splits.SplitsCommand;
import picocli.CommandLine.Command;

/** The top of the command line: one subcommand per job. */
@Command(
    name = "hongbao",
    mixinStandardHelpOptions = true,
    versionProvider = hongbao.app.Version.Provider.class,
    description = "A red-packet service: serve it, benchmark it, study its splits.",
    subcommands = {
      ServeCommand.class,
      SplitsCommand.class,
      BenchCommand.class,
      GatewaySimCommand.class,
      IssuerSimCommand.class,
      SimulateCommand.class
    })
public final class HongbaoCommand implements Runnable {

  @Override
  public void run() {
    new picocli.CommandLine(this).usage(System.out);
  }
}
