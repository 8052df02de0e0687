package hongbao.gateway;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.withdrawal.GatewayNotice;
import hongbao.core.withdrawal.GatewayNotices;
import hongbao.core.withdrawal.QueryAnswer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/** Opens the gateway's callbacks: a valid signature, then the notice it carries. */
public final class SignedNotices implements GatewayNotices {

  private final GatewaySignature signature;

  public SignedNotices(GatewaySignature signature) {
    this.signature = signature;
  }

  @Override
  public String signatureHeader() {
    return GatewayProtocol.SIGNATURE_HEADER;
  }

  @Override
  public Optional<GatewayNotice> open(String body, String signatureHex) {
    if (!signature.verify(GatewaySignature.NOTICE, body, signatureHex)) {
      return Optional.empty();
    }
    try {
      return Optional.of(notice(new JsonObject(body)));
    } catch (DecodeException | ClassCastException | IllegalArgumentException e) {
      // Signed by the gateway, yet not a notice we can apply: a gateway bug. Refused whole, so
      // nothing of it is applied; the withdrawal settles by its next query or a corrected notice.
      throw new RejectedException(
          Rejection.INVALID_REQUEST, "a signed notice that does not settle: " + e.getMessage());
    }
  }

  private static GatewayNotice notice(JsonObject json) {
    if (!(json.getValue("outTradeNo") instanceof String outTradeNo)) {
      throw new IllegalArgumentException("no outTradeNo string");
    }
    QueryAnswer answer =
        switch (json.getValue("result") instanceof String result ? result : "") {
          case GatewayProtocol.SUCCESS ->
              new QueryAnswer.Success(GatewayProtocol.ref(json), GatewayProtocol.paid(json, null));
          case GatewayProtocol.FAIL ->
              new QueryAnswer.Fail(GatewayProtocol.text(json, "reason", "FAIL"));
          default -> throw new IllegalArgumentException("result " + json.getValue("result"));
        };
    return new GatewayNotice(outTradeNo, answer);
  }
}
