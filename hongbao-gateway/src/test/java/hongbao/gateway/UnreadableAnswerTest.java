package hongbao.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.withdrawal.QueryAnswer;
import hongbao.core.withdrawal.TransferAnswer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
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

  private final FakeGateway fake = new FakeGateway();

  @AfterEach
  void stop() {
    fake.close();
  }

  /** The adapter, talking to the test's gateway, which signs what the test sets as its answer. */
  private HttpGateway gateway() {
    return fake.adapter();
  }

  @Test
  void aTransferOrQueryAnswerOfTheWrongShape_isAnUnknownOutcome() {
    try (HttpGateway gateway = gateway()) {
      for (String body : UNREADABLE) {
        fake.answer = body;
        assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
            .as(body)
            .isInstanceOf(TransferAnswer.SystemError.class);
        assertThat(gateway.query("T1")).as(body).isInstanceOf(QueryAnswer.NoAnswer.class);
      }
      // A query does not read retryable; a transfer does, and a FAIL that leaves it out is no
      // final refusal.
      for (String retryable : List.of(",\"retryable\":\"true\"", ",\"retryable\":null", "")) {
        fake.answer = "{\"result\":\"FAIL\",\"reason\":\"x\"" + retryable + "}";
        assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
            .as(fake.answer)
            .isInstanceOf(TransferAnswer.SystemError.class);
      }
      fake.answer = "{\"result\":\"FAIL\",\"reason\":\"x\",\"retryable\":false}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Fail("x", false));
      // A query's SUCCESS must say what was paid; a transfer's may leave it to the request.
      fake.answer = "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\"}";
      assertThat(gateway.query("T1")).isInstanceOf(QueryAnswer.NoAnswer.class);
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Success("G1", Amount.fen(5_000)));
      // The same fields of the right types are read as they say.
      fake.answer = "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":5000}";
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
      fake.answer = "{\"result\":\"FAIL\",\"reason\":\"PAYEE\\u0000LIMIT\\n\",\"retryable\":true}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Fail("PAYEE?LIMIT?", true));
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Fail("PAYEE?LIMIT?"));
      fake.answer = "{\"result\":\"FAIL\",\"reason\":null,\"retryable\":false}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Fail("FAIL", false));
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Fail("FAIL"));
      fake.answer = "{\"result\":\"SYSTEM_ERROR\",\"message\":\"" + "错".repeat(10_000) + "\"}";
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.SystemError("错".repeat(GatewayProtocol.TEXT_MAX) + "…"));
      fake.answer = "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G\\u00001\",\"amount\":5000}";
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
