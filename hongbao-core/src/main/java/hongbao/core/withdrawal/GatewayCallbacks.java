package hongbao.core.withdrawal;

import java.util.Optional;

/** Receives the gateway's callbacks: proves they are the gateway's, then applies them. */
public final class GatewayCallbacks {

  private final GatewayNotices notices;
  private final Settlement settlement;

  public GatewayCallbacks(GatewayNotices notices, Settlement settlement) {
    this.notices = notices;
    this.settlement = settlement;
  }

  /** The request header that carries a callback's signature. */
  public String signatureHeader() {
    return notices.signatureHeader();
  }

  /**
   * @return false when the signature does not prove the gateway sent {@code body}
   */
  public boolean receive(String body, String signature) {
    Optional<GatewayNotice> notice = notices.open(body, signature);
    notice.ifPresent(settlement::notice);
    return notice.isPresent();
  }
}
