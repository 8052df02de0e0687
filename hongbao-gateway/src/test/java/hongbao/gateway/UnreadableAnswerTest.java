package hongbao.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.withdrawal.QueryAnswer;
import hongbao.core.withdrawal.TransferAnswer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A gateway whose answer is JSON with a field of the wrong type, null or out of range (a payment of
 * zero or less), or not an object: the adapter reads it as an unknown outcome (the withdrawal is
 * asked about again), never as an exception, which stopped the janitor's whole batch at that
 * withdrawal, round after round.
 */
class UnreadableAnswerTest {

  /** Unreadable to a transfer and to a query alike. */
  private static final List<String> UNREADABLE =
      List.of(
          "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":\"5000\"}",
          "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":true}",
          "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":null}",
          "{\"result\":null}",
          "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":1e30}",
          "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":5000.5}",
          "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":-5000}",
          "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":0}",
          "[\"SUCCESS\"]");

  private Vertx vertx;
  private HttpServer server;
  private volatile String answer;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                request ->
                    request.response().putHeader("content-type", "application/json").end(answer))
            .listen(0, "127.0.0.1")
            .await();
  }

  @AfterEach
  void stop() {
    server.close().await();
    vertx.close().await();
  }

  /** The adapter, talking to the test's server. */
  private HttpGateway gateway() {
    return new HttpGateway(
        vertx,
        URI.create("http://127.0.0.1:" + server.actualPort()),
        new GatewaySignature("test-secret-0123456789"),
        Duration.ofSeconds(2),
        () -> null);
  }

  @Test
  void aTransferOrQueryAnswerOfTheWrongShape_isAnUnknownOutcome() {
    try (HttpGateway gateway = gateway()) {
      for (String body : UNREADABLE) {
        answer = body;
        assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
            .as(body)
            .isInstanceOf(TransferAnswer.SystemError.class);
        assertThat(gateway.query("T1")).as(body).isInstanceOf(QueryAnswer.NoAnswer.class);
      }
      // A query does not read retryable; a transfer does, and a FAIL that leaves it out is no
      // final refusal.
      for (String retryable : List.of(",\"retryable\":\"true\"", ",\"retryable\":null", "")) {
        answer = "{\"result\":\"FAIL\",\"reason\":\"x\"" + retryable + "}";
        assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
            .as(answer)
            .isInstanceOf(TransferAnswer.SystemError.class);
      }
      answer = "{\"result\":\"FAIL\",\"reason\":\"x\",\"retryable\":false}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Fail("x", false));
      // A query's SUCCESS must say what was paid; a transfer's may leave it to the request.
      answer = "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\"}";
      assertThat(gateway.query("T1")).isInstanceOf(QueryAnswer.NoAnswer.class);
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Success("G1", Amount.fen(5_000)));
      // The same fields of the right types are read as they say.
      answer = "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":5000}";
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Success("G1", Amount.fen(5_000)));
    }
  }

  /**
   * A FAIL's reason, a SYSTEM_ERROR's message and a SUCCESS's reference are kept with the
   * withdrawal: a NUL in one made the settling move fail in PostgreSQL on every check, the
   * withdrawal never settled, and a megabyte of text would be kept whole. They are kept printable
   * and short; a reason given as null is the default one, as a missing one is.
   */
  @Test
  void theGatewaysText_isKeptPrintableAndShort() {
    try (HttpGateway gateway = gateway()) {
      answer = "{\"result\":\"FAIL\",\"reason\":\"PAYEE\\u0000LIMIT\\n\",\"retryable\":true}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Fail("PAYEE?LIMIT?", true));
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Fail("PAYEE?LIMIT?"));
      answer = "{\"result\":\"FAIL\",\"reason\":null,\"retryable\":false}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Fail("FAIL", false));
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Fail("FAIL"));
      answer = "{\"result\":\"SYSTEM_ERROR\",\"message\":\"" + "错".repeat(10_000) + "\"}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.SystemError("错".repeat(GatewayProtocol.TEXT_MAX) + "…"));
      answer = "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G\\u00001\",\"amount\":5000}";
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Success("G?1", Amount.fen(5_000)));
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Success("G?1", Amount.fen(5_000)));
    }
  }

  @Test
  void aSignedCallbackPayingNothing_isRefused_notSettledOn() {
    var signature = new GatewaySignature("test-secret-0123456789");
    var notices = new SignedNotices(signature);
    for (String amount : new String[] {",\"amount\":0", ",\"amount\":-5000", ""}) {
      String body =
          "{\"outTradeNo\":\"T1\",\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\"" + amount + "}";
      assertThatThrownBy(() -> notices.open(body, signature.sign(GatewaySignature.NOTICE, body)))
          .as(body)
          .isInstanceOf(RejectedException.class)
          .extracting(e -> ((RejectedException) e).rejection())
          .isEqualTo(Rejection.INVALID_REQUEST);
    }
  }
}
