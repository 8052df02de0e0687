package hongbao.app;

import hongbao.app.cli.HongbaoCommand;
import picocli.CommandLine;

/** The {@code hongbao} command line. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    int exit = new CommandLine(new HongbaoCommand()).execute(args);
    if (exit != 0) {
      System.exit(exit);
    }
  }
}
