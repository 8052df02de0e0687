package hongbao.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `hongbao simulate` replays a seed: clean for the faithful ledger, failing for a planted bug. */
class SimulateCommandTest {

  private int run(ByteArrayOutputStream out, String... args) {
    PrintStream original = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      return new CommandLine(new HongbaoCommand()).execute(args);
    } finally {
      System.setOut(original);
    }
  }

  @Test
  void aSeed_overTheFaithfulLedger_isClean() {
    var out = new ByteArrayOutputStream();

    assertThat(run(out, "simulate", "--seed", "1", "--steps", "200", "--seeds", "3")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("every audit clean");
  }

  @Test
  void aSeed_overThePlantedBug_failsWithItsReplayCommand() {
    var out = new ByteArrayOutputStream();

    assertThat(run(out, "simulate", "--seed", "1", "--steps", "200", "--ledger", "pays-twice"))
        .isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("seed 1 failed at step")
        .contains("./hongbao simulate --seed 1 --steps 200 --ledger pays-twice");
  }
}
