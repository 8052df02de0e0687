package hongbao.gateway;

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
    JsonObject json;
    try {
      json = new JsonObject(body);
    } catch (DecodeException e) {
      // Signed by the gateway yet not JSON: a gateway bug; nothing to apply.
      throw new IllegalArgumentException("a signed notice that is not JSON", e);
    }
    String outTradeNo = json.getString("outTradeNo");
    QueryAnswer answer =
        switch (json.getString("result", "")) {
          case GatewayProtocol.SUCCESS ->
              new QueryAnswer.Success(
                  json.getString("gatewayRef"), GatewayProtocol.paid(json, null));
          case GatewayProtocol.FAIL -> new QueryAnswer.Fail(json.getString("reason", "FAIL"));
          default -> throw new IllegalArgumentException("a notice that does not settle: " + body);
        };
    return Optional.of(new GatewayNotice(outTradeNo, answer));
  }
}
