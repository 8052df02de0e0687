package hongbao.gateway;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 signatures with the secret the service and the gateway share. A request is signed
 * over its method, path and body, the gateway's answer to it over the same method and path and the
 * answer's body, a callback over its body, so a signature for one cannot be replayed as another:
 * not a request's as its answer, nor one transfer's answer as another's. Checking compares in
 * constant time.
 */
public final class GatewaySignature {

  /** What a callback's signature covers besides its body. */
  public static final String NOTICE = "NOTICE";

  private final byte[] secret;

  public GatewaySignature(String secret) {
    if (secret == null || secret.length() < 16) {
      throw new IllegalArgumentException("the gateway secret needs at least 16 characters");
    }
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The signature of a request ({@code purpose} = "METHOD /path") or a notice ({@link #NOTICE}).
   */
  public String sign(String purpose, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(purpose.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) '\n');
      mac.update(body.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(mac.doFinal());
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is always available", e);
    }
  }

  public boolean verify(String purpose, String body, String signature) {
    if (signature == null) {
      return false;
    }
    return MessageDigest.isEqual(
        sign(purpose, body).getBytes(StandardCharsets.US_ASCII),
        signature.getBytes(StandardCharsets.US_ASCII));
  }

  public static String request(String method, String path) {
    return method + " " + path;
  }

  /** What the answer to the request {@code method path} is signed for, besides its body. */
  public static String answer(String method, String path) {
    return "ANSWER " + method + " " + path;
  }
}
