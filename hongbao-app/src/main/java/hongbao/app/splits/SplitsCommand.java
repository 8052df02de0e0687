package hongbao.app.splits;

import hongbao.core.split.SplitOptions;
import hongbao.core.split.SplitPolicies;
import hongbao.core.split.SplitPolicy;
import hongbao.core.split.SplitStatistics;
import hongbao.core.split.SplitStatistics.Position;
import hongbao.core.split.SplitStatistics.Summary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hongbao splits}: simulates many packets with one split policy and shows, per grab
 * position, what the shares look like and how often that position had the best luck.
 */
@Command(
    name = "splits",
    mixinStandardHelpOptions = true,
    description = {
      "Simulates K packets split by a policy and prints, per position, the mean, standard"
          + " deviation, min and max share and how often the position had the best luck."
    },
    sortOptions = false)
public final class SplitsCommand implements Callable<Integer> {

  /** Exit code for a request the policy or the limits reject (picocli uses 2 for bad usage). */
  static final int REJECTED = 2;

  static final int MAX_RUNS = 10_000_000;

  @Spec CommandSpec spec;

  @Option(
      names = "--policy",
      required = true,
      paramLabel = "NAME",
      description = "double-mean, double-mean-smoothed, at-grab, fixed, fair or normal")
  String policy;

  @Option(names = "--amount", required = true, paramLabel = "FEN", description = "packet amount")
  long amountFen;

  @Option(names = "--count", required = true, paramLabel = "N", description = "shares per packet")
  int count;

  @Option(
      names = "--runs",
      defaultValue = "10000",
      paramLabel = "K",
      description = "packets to simulate (default ${DEFAULT-VALUE})")
  int runs;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "S",
      description = "random seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--cap", paramLabel = "FEN", description = "largest share (WeChat: 20000)")
  Long capFen;

  @Option(
      names = "--spread",
      paramLabel = "FRACTION",
      description = "normal only: standard deviation as a fraction of the mean (default 0.5)")
  Double spread;

  @Option(names = "--json", description = "print JSON instead of a table")
  boolean json;

  @Option(names = "--plot", paramLabel = "FILE", description = "write an SVG picture")
  Path plot;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Summary summary;
    try {
      summary = simulate();
    } catch (IllegalArgumentException e) {
      err.println("splits: " + e.getMessage());
      err.flush();
      return REJECTED;
    }
    if (json) {
      out.println(SplitsJson.write(summary));
    } else {
      printTable(out, summary);
    }
    out.flush();
    if (plot != null) {
      return writePlot(summary, err);
    }
    return 0;
  }

  private Summary simulate() {
    if (runs < 1 || runs > MAX_RUNS) {
      throw new IllegalArgumentException(
          "--runs must be between 1 and " + MAX_RUNS + ", was " + runs);
    }
    if (plot != null && !plot.toString().toLowerCase(Locale.ROOT).endsWith(".svg")) {
      throw new IllegalArgumentException("--plot writes SVG: the file name must end in .svg");
    }
    SplitOptions options = SplitOptions.DEFAULTS;
    if (capFen != null) {
      options = options.withCapFen(capFen);
    }
    if (spread != null) {
      options = options.withSpread(spread);
    }
    SplitPolicy splitPolicy = SplitPolicies.named(policy, options);
    return SplitStatistics.simulate(splitPolicy, amountFen, count, runs, seed);
  }

  private int writePlot(Summary summary, PrintWriter err) {
    try {
      Files.writeString(plot, SplitsPlot.svg(summary, seed), StandardCharsets.UTF_8);
      return 0;
    } catch (IOException e) {
      err.println("splits: cannot write " + plot + ": " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private void printTable(PrintWriter out, Summary summary) {
    out.printf(
        Locale.ROOT,
        "policy %s: %d fen in %d shares, %d packets, seed %d%n",
        summary.policy(),
        summary.amountFen(),
        summary.count(),
        summary.runs(),
        seed);
    out.printf(
        Locale.ROOT,
        "sumAlwaysExact %s, minShare %d fen%n%n",
        summary.sumAlwaysExact(),
        summary.minShare());
    out.printf(
        Locale.ROOT,
        "%8s %12s %12s %10s %10s %9s%n",
        "position",
        "mean",
        "stddev",
        "min",
        "max",
        "bestLuck");
    for (Position p : summary.positions()) {
      out.printf(
          Locale.ROOT,
          "%8d %12.1f %12.1f %10d %10d %8.2f%%%n",
          p.position(),
          p.mean(),
          p.stddev(),
          p.min(),
          p.max(),
          100 * p.bestLuckShare());
    }
  }
}
