package hongbao.core.withdrawal;

import java.util.Optional;

/** Port: opens the gateway's signed callbacks. */
public interface GatewayNotices {

  /** The notice in {@code body}, or empty when the signature does not prove the gateway sent it. */
  Optional<GatewayNotice> open(String body, String signature);

  /** The request header that carries the callback's signature. */
  String signatureHeader();
}
