package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * A client that signs its own tokens from the contract alone (HS256 over the service secret, claim
 * {@code sub}), here with the JDK's HMAC rather than the service's code: a token without {@code
 * exp} is a valid credential unless the install requires one ({@code HONGBAO_JWT_REQUIRE_EXP}).
 */
class SelfSignedTokenTest {

  private final String secret = UUID.randomUUID() + "-" + UUID.randomUUID();

  @Test
  void aTokenWithSubOnly_isAccepted_andRefusedWhereExpIsRequired() {
    long inAnHour = System.currentTimeMillis() / 1000 + 3_600;
    String subOnly = sign("{\"sub\":\"outsider\"}");
    String expiring = sign("{\"sub\":\"outsider\",\"exp\":" + inAnHour + "}");
    String expired = sign("{\"sub\":\"outsider\",\"exp\":1}");

    try (var service =
        TestService.start(Backends.embedded(), Map.of("HONGBAO_JWT_SECRET", secret), false)) {
      var api = service.api();
      var wallet = api.get("/api/v1/wallet", subOnly);
      assertThat(wallet.status()).as(wallet.raw()).isEqualTo(200);
      assertThat(wallet.json().getString("userId")).isEqualTo("outsider");
      assertThat(api.get("/api/v1/wallet", expiring).status()).isEqualTo(200);
      assertThat(api.get("/api/v1/wallet", expired).errorCode()).isEqualTo("UNAUTHENTICATED");
      service.assertReconciled();
    }
    try (var service =
        TestService.start(
            Backends.embedded(),
            Map.of("HONGBAO_JWT_SECRET", secret, "HONGBAO_JWT_REQUIRE_EXP", "true"),
            false)) {
      var api = service.api();
      var refused = api.get("/api/v1/wallet", subOnly);
      assertThat(refused.status()).as(refused.raw()).isEqualTo(401);
      assertThat(refused.errorCode()).isEqualTo("UNAUTHENTICATED");
      assertThat(api.get("/api/v1/wallet", expiring).status()).isEqualTo(200);
      service.assertReconciled();
    }
  }

  /** A compact HS256 JWS of {@code claims}, as any JWT library would write it. */
  private String sign(String claims) {
    var base64 = Base64.getUrlEncoder().withoutPadding();
    String signingInput =
        base64.encodeToString(
                "{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
            + "."
            + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return signingInput
          + "."
          + base64.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
