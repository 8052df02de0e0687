package hongbao.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.money.Amount;
import hongbao.core.withdrawal.QueryAnswer;
import hongbao.core.withdrawal.StatementLine;
import hongbao.core.withdrawal.StatementUnavailableException;
import hongbao.core.withdrawal.TransferAnswer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Answers that are well formed but not the gateway's: without a signature, signed with another
 * secret, or carrying a signature the gateway made for something else (another transfer's answer,
 * the request itself, another body). Whoever sent them (a proxy, a misrouted address, an attacker
 * on the path), the adapter reads each as no answer: the withdrawal is asked about again, never
 * marked paid on a forged SUCCESS nor given back on a forged FAIL while the gateway may have paid
 * it. A statement that is not the gateway's is not reconciled against.
 */
class UnsignedAnswerTest {

  private static final String PAID =
      "{\"result\":\"SUCCESS\",\"gatewayRef\":\"G1\",\"amount\":5000}";
  private static final String REFUSED =
      "{\"result\":\"FAIL\",\"reason\":\"PAYEE_ACCOUNT_ABNORMAL\",\"retryable\":false}";
  private static final String STATEMENT =
      GatewayProtocol.STATEMENT_HEADER + "\nT1,5000,SUCCESS,2026-11-21T08:00:00Z\n";
  private static final LocalDate DAY = LocalDate.parse("2026-11-21");

  private static final Map<String, FakeGateway.Signer> FORGERIES =
      Map.of(
          "no signature",
          (method, path, body) -> null,
          "another secret",
          (method, path, body) ->
              new GatewaySignature("another-secret-012345")
                  .sign(GatewaySignature.answer(method, path), body),
          "the gateway's for another transfer's answer",
          (method, path, body) ->
              FakeGateway.SIGNATURE.sign(
                  GatewaySignature.answer("GET", GatewayProtocol.TRANSFERS + "/T2"), body),
          "the gateway's for the request",
          (method, path, body) ->
              FakeGateway.SIGNATURE.sign(GatewaySignature.request(method, path), body),
          "the gateway's for another body",
          (method, path, body) ->
              FakeGateway.SIGNATURE.sign(GatewaySignature.answer(method, path), body + " "));

  private final FakeGateway fake = new FakeGateway();

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void anAnswerTheGatewayDidNotSign_isNoAnswer_andItsStatementIsNotRead() {
    try (HttpGateway gateway = fake.adapter()) {
      for (var forgery : FORGERIES.entrySet()) {
        fake.signer = forgery.getValue();
        for (String body : List.of(PAID, REFUSED)) {
          fake.answer = body;
          assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
              .as("%s: %s", forgery.getKey(), body)
              .isEqualTo(new TransferAnswer.NoAnswer(HttpGateway.NOT_SIGNED));
          assertThat(gateway.query("T1"))
              .as("%s: %s", forgery.getKey(), body)
              .isEqualTo(new QueryAnswer.NoAnswer(HttpGateway.NOT_SIGNED));
        }
        fake.answer = STATEMENT;
        assertThatThrownBy(() -> gateway.statement(DAY))
            .as(forgery.getKey())
            .isInstanceOf(StatementUnavailableException.class)
            .hasMessageContaining(HttpGateway.NOT_SIGNED);
      }

      // The same answers, signed by the gateway for these requests, are read as they say.
      fake.signer = FakeGateway.THE_GATEWAYS;
      fake.answer = PAID;
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Success("G1", Amount.fen(5_000)));
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Success("G1", Amount.fen(5_000)));
      fake.answer = REFUSED;
      assertThat(gateway.transfer("T1", "alice", Amount.fen(5_000)))
          .isEqualTo(new TransferAnswer.Fail("PAYEE_ACCOUNT_ABNORMAL", false));
      assertThat(gateway.query("T1")).isEqualTo(new QueryAnswer.Fail("PAYEE_ACCOUNT_ABNORMAL"));
      fake.answer = STATEMENT;
      assertThat(gateway.statement(DAY))
          .containsExactly(
              new StatementLine(
                  "T1", Amount.fen(5_000), true, Instant.parse("2026-11-21T08:00:00Z")));
    }
  }
}
