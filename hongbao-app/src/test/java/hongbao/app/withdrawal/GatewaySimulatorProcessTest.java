package hongbao.app.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.embedded.GatewaySimProcess;
import hongbao.core.money.Amount;
import hongbao.core.withdrawal.QueryAnswer;
import hongbao.core.withdrawal.StatementLine;
import hongbao.core.withdrawal.TransferAnswer;
import hongbao.gateway.GatewaySignature;
import hongbao.gateway.HttpGateway;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator as the separate process it runs as: killed with -9 and started again on its book,
 * it still knows every payment it answered, and its statement still lists them.
 */
class GatewaySimulatorProcessTest {

  private static final String SECRET = "process-test-secret-0123";

  @TempDir Path dir;

  @Test
  void killedWithMinus9_andRestartedOnItsBook_itRemembersWhatItPaid() {
    Path book = dir.resolve("book.csv");
    Vertx vertx = Vertx.vertx();
    try {
      GatewaySimProcess first = GatewaySimProcess.start(SECRET, book, List.of("--latency-ms", "1"));
      List<String> paid = List.of("K1", "K2", "K3");
      try (HttpGateway gateway = gateway(vertx, first)) {
        for (String no : paid) {
          assertThat(gateway.transfer(no, "alice", Amount.fen(100)))
              .isInstanceOf(TransferAnswer.Success.class);
        }
      } finally {
        first.kill();
      }

      GatewaySimProcess second =
          GatewaySimProcess.start(SECRET, book, List.of("--latency-ms", "1"));
      try (HttpGateway gateway = gateway(vertx, second)) {
        for (String no : paid) {
          assertThat(gateway.query(no)).isInstanceOf(QueryAnswer.Success.class);
          assertThat(gateway.transfer(no, "alice", Amount.fen(100)))
              .as("paid before the kill, not again")
              .isInstanceOf(TransferAnswer.Success.class);
        }
        assertThat(gateway.statement(LocalDate.now(ZoneOffset.UTC)))
            .extracting(StatementLine::outTradeNo)
            .containsExactlyInAnyOrderElementsOf(paid);
      } finally {
        second.close();
      }
    } finally {
      vertx.close().await();
    }
  }

  /**
   * An adapter patient with a simulator just started: what is checked is its book, not its speed,
   * and a fresh JVM's first answers on a loaded box took longer than 5 s.
   */
  private static HttpGateway gateway(Vertx vertx, GatewaySimProcess simulator) {
    return new HttpGateway(
        vertx,
        URI.create(simulator.url()),
        new GatewaySignature(SECRET),
        Duration.ofSeconds(30),
        () -> null);
  }
}
