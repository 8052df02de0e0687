package hongbao.app.splits;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SplitsCommandTest {

  private record Run(int exitCode, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new SplitsCommand());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    int exitCode = command.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  private static final String NUMBER = "-?\\d+(\\.\\d+)?";

  private static final Pattern POSITION =
      Pattern.compile(
          "\\{\"position\": (\\d+), \"mean\": "
              + NUMBER
              + ", \"stddev\": "
              + NUMBER
              + ", \"min\": \\d+, \"max\": \\d+, \"bestLuckShare\": "
              + NUMBER
              + "}");

  private static void assertJsonShape(String json, String policy, int runs, int count) {
    String head =
        Pattern.quote("{\"policy\": \"" + policy + "\", \"runs\": " + runs + ", ")
            + "\"sumAlwaysExact\": true, \"minShare\": \\d+, \"positions\": \\[";
    String positions = POSITION.pattern() + "(, " + POSITION.pattern() + "){" + (count - 1) + "}";
    assertThat(json.strip()).matches(head + positions + "]}");
  }

  @Test
  void json_forDoubleMean_printsExactlyTheDocumentedShape() {
    Run run =
        run(
            "--policy",
            "double-mean",
            "--amount",
            "10000",
            "--count",
            "10",
            "--runs",
            "2000",
            "--seed",
            "7",
            "--json");

    assertThat(run.exitCode()).isZero();
    assertJsonShape(run.out(), "double-mean", 2000, 10);
    assertThat(run.out()).contains("{\"position\": 1, ").contains("{\"position\": 10, ");
  }

  @Test
  void json_forFair_printsExactlyTheDocumentedShapeWithBestLuckSummingToOne() {
    Run run =
        run("--policy", "fair", "--amount", "10000", "--count", "10", "--runs", "1000", "--json");

    assertThat(run.exitCode()).isZero();
    assertJsonShape(run.out(), "fair", 1000, 10);
    double luck =
        Pattern.compile("\"bestLuckShare\": (" + NUMBER + ")")
            .matcher(run.out())
            .results()
            .mapToDouble(m -> Double.parseDouble(m.group(1)))
            .sum();
    assertThat(luck).isBetween(0.999, 1.001);
  }

  @Test
  void json_withTheSameSeed_isTheSame() {
    String[] args = {
      "--policy",
      "normal",
      "--amount",
      "5000",
      "--count",
      "7",
      "--runs",
      "300",
      "--seed",
      "3",
      "--json"
    };
    assertThat(run(args).out()).isEqualTo(run(args).out());
  }

  @Test
  void table_printsOneRowPerPositionAndTheChecks() {
    Run run = run("--policy", "fixed", "--amount", "10000", "--count", "4", "--runs", "10");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("policy fixed: 10000 fen in 4 shares, 10 packets, seed 1")
        .contains("sumAlwaysExact true, minShare 2500 fen")
        .contains("bestLuck");
    assertThat(run.out().lines().filter(line -> line.matches("\\s+\\d+\\s+2500\\.0 .*")))
        .hasSize(4);
  }

  @Test
  void plot_writesAnSvgPicture(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("fair.svg");
    Run run =
        run(
            "--policy",
            "fair",
            "--amount",
            "10000",
            "--count",
            "10",
            "--runs",
            "500",
            "--plot",
            file.toString());

    assertThat(run.exitCode()).isZero();
    String svg = Files.readString(file);
    assertThat(svg).startsWith("<svg ").contains("best luck").endsWith("</svg>\n");
  }

  @Test
  void plot_withManyPositions_drawsLines(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("many.svg");
    Run run =
        run(
            "--policy",
            "double-mean",
            "--amount",
            "20000000",
            "--count",
            "10000",
            "--runs",
            "20",
            "--json",
            "--plot",
            file.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(Files.readString(file)).contains("<polyline");
  }

  @Test
  void unknownPolicy_failsWithAClearMessage() {
    Run run = run("--policy", "lottery", "--amount", "10000", "--count", "10");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("unknown split policy 'lottery'");
  }

  @Test
  void amountBelowCount_failsWithAClearMessage() {
    Run run = run("--policy", "fair", "--amount", "5", "--count", "10");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("amount must be >= count");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void capTooSmall_failsWithAClearMessage() {
    Run run = run("--policy", "fair", "--amount", "10000", "--count", "10", "--cap", "999");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("cap x count must be >= amount");
  }

  @Test
  void missingAmount_failsWithUsage() {
    Run run = run("--policy", "fair", "--count", "10");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("--amount");
  }

  @Test
  void nonNumericCount_failsWithUsage() {
    Run run = run("--policy", "fair", "--amount", "100", "--count", "ten");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("--count");
  }

  @Test
  void zeroRuns_failsWithAClearMessage() {
    Run run = run("--policy", "fair", "--amount", "100", "--count", "10", "--runs", "0");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("--runs must be between 1 and");
  }

  @Test
  void plotToAPngName_failsBeforeSimulating() {
    Run run = run("--policy", "fair", "--amount", "100", "--count", "10", "--plot", "picture.png");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("must end in .svg");
  }
}
