package hongbao.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TokensTest {

  private static final String SECRET = "0123456789abcdef0123456789abcdef-test";
  private static final Instant NOW = Instant.parse("2027-02-16T12:00:00Z");

  private final Tokens tokens = new Tokens(SECRET, Clock.fixed(NOW, ZoneOffset.UTC));

  private static JWTClaimsSet.Builder claims() {
    return new JWTClaimsSet.Builder()
        .subject("alice")
        .issueTime(Date.from(NOW))
        .expirationTime(Date.from(NOW.plusSeconds(60)));
  }

  private static String signed(JWSAlgorithm algorithm, JWTClaimsSet claims) {
    var jwt = new SignedJWT(new JWSHeader(algorithm), claims);
    try {
      jwt.sign(new MACSigner(SECRET.repeat(2).getBytes(StandardCharsets.UTF_8)));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  private static String signed(JWTClaimsSet claims) {
    var jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
    try {
      jwt.sign(new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  @Test
  void mintedToken_verifies_asItsUser_withItsAdminFlag() {
    assertThat(tokens.verify(tokens.mint("alice", false, Duration.ofDays(30))))
        .contains(new Caller("alice", false));
    assertThat(tokens.verify(tokens.mint("ops", true, Duration.ofDays(30))))
        .contains(new Caller("ops", true));
    assertThat(tokens.verify(signed(claims().claim("admin", true).build())))
        .contains(new Caller("alice", true));
  }

  @Test
  void subject_mustBeAJsonString() {
    assertThat(tokens.verify(signed(claims().claim("sub", 42).build()))).isEmpty();
    assertThat(tokens.verify(signed(claims().claim("sub", true).build()))).isEmpty();
    assertThat(tokens.verify(signed(claims().subject(null).build()))).isEmpty();
    assertThat(tokens.verify(signed(claims().subject("a b").build()))).isEmpty();
    assertThat(tokens.verify(signed(claims().subject("42").build())))
        .contains(new Caller("42", false));
  }

  @Test
  void tokenWithoutExpiry_isAccepted_unlessTheInstallRequiresOne() {
    String token = signed(claims().expirationTime(null).build());
    assertThat(tokens.verify(token)).contains(new Caller("alice", false));
    var requiring =
        new Tokens(SECRET, Clock.fixed(NOW, ZoneOffset.UTC), Tokens.ExpiryRule.REQUIRED);
    assertThat(requiring.verify(token)).isEmpty();
    assertThat(requiring.verify(signed(claims().build()))).contains(new Caller("alice", false));
  }

  @Test
  void expiredToken_isRefused_fromItsExpiryOn() {
    assertThat(tokens.verify(signed(claims().expirationTime(Date.from(NOW)).build()))).isEmpty();
    assertThat(
            tokens.verify(signed(claims().expirationTime(Date.from(NOW.minusSeconds(1))).build())))
        .isEmpty();
    assertThat(
            tokens.verify(signed(claims().expirationTime(Date.from(NOW.plusSeconds(1))).build())))
        .isPresent();
  }

  @Test
  void tokenNotYetValid_isRefused_untilItsNotBefore() {
    assertThat(tokens.verify(signed(claims().notBeforeTime(Date.from(NOW.plusSeconds(1))).build())))
        .isEmpty();
    assertThat(tokens.verify(signed(claims().notBeforeTime(Date.from(NOW)).build()))).isPresent();
    assertThat(
            tokens.verify(signed(claims().notBeforeTime(Date.from(NOW.minusSeconds(60))).build())))
        .isPresent();
  }

  @Test
  void onlyHs256_signedWithTheServiceSecret_isAccepted() {
    assertThat(tokens.verify(signed(JWSAlgorithm.HS512, claims().build()))).isEmpty();
    assertThat(tokens.verify(new PlainJWT(new PlainHeader(), claims().build()).serialize()))
        .isEmpty();
    var other =
        new Tokens("another secret of at least thirty-two bytes", Clock.fixed(NOW, ZoneOffset.UTC));
    assertThat(tokens.verify(other.mint("alice", true, Duration.ofDays(1)))).isEmpty();
    String token = signed(claims().build());
    String tampered = token.substring(0, token.length() - 2) + (token.endsWith("AA") ? "BB" : "AA");
    assertThat(tokens.verify(tampered)).isEmpty();
    assertThat(tokens.verify("not-a-token")).isEqualTo(Optional.empty());
  }

  /** A token signed with the service secret over exactly these JSON texts. */
  private static String signedRaw(String header, String payload) {
    var url = java.util.Base64.getUrlEncoder().withoutPadding();
    String signingInput =
        url.encodeToString(header.getBytes(StandardCharsets.UTF_8))
            + "."
            + url.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    try {
      var mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(
          new javax.crypto.spec.SecretKeySpec(
              SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return signingInput
          + "."
          + url.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final String HS256 = "{\"alg\":\"HS256\"}";
  private static final long EXP = NOW.plusSeconds(60).getEpochSecond();

  @Test
  void handSignedToken_followsTheSameRules() {
    assertThat(tokens.verify(signedRaw(HS256, "{\"sub\":\"bob\",\"exp\":" + EXP + "}")))
        .contains(new Caller("bob", false));
    assertThat(
            tokens.verify(
                signedRaw(
                    HS256, "{\"sub\":\"bob\",\"admin\":{\"sub\":\"ops\"},\"exp\":" + EXP + "}")))
        .as("a nested object is read as a whole, not as claims")
        .contains(new Caller("bob", false));
    assertThat(tokens.verify(signedRaw(HS256, "{\"sub\":\"bob\",\"exp\":\"" + EXP + "\"}")))
        .as("exp as text")
        .isEmpty();
  }

  @Test
  void repeatedClaim_isRefused() {
    assertThat(
            tokens.verify(
                signedRaw(HS256, "{\"sub\":\"bob\",\"sub\":\"ops\",\"exp\":" + EXP + "}")))
        .isEmpty();
  }

  @Test
  void criticalHeaderParameter_orAnotherAlgorithm_isRefused() {
    String payload = "{\"sub\":\"bob\",\"exp\":" + EXP + "}";
    assertThat(tokens.verify(signedRaw("{\"alg\":\"HS256\",\"crit\":[\"x\"],\"x\":1}", payload)))
        .isEmpty();
    assertThat(tokens.verify(signedRaw("{\"alg\":\"none\"}", payload))).isEmpty();
    assertThat(tokens.verify(signedRaw("{}", payload))).isEmpty();
    assertThat(tokens.verify(signedRaw(HS256, payload) + ".x")).isEmpty();
    assertThat(tokens.verify(signedRaw(HS256, payload) + "=")).isEmpty();
  }

  @Test
  void anotherSpellingOfAnHs256Header_isReadAndAccepted() {
    String payload = "{\"sub\":\"bob\",\"exp\":" + EXP + "}";
    assertThat(tokens.verify(signedRaw("{\"typ\":\"JWT\",\"alg\":\"HS256\"}", payload)))
        .contains(new Caller("bob", false));
    assertThat(tokens.verify(signedRaw("{ \"alg\" : \"HS256\" }", payload)))
        .contains(new Caller("bob", false));
    assertThat(tokens.verify(signedRaw(HS256, payload)))
        .as("the header every minted token carries")
        .contains(new Caller("bob", false));
    assertThat(tokens.mint("bob", false, Duration.ofDays(1)))
        .startsWith(
            java.util.Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(HS256.getBytes(StandardCharsets.UTF_8))
                + ".");
  }

  /**
   * The last of a signature's 43 characters carries two bits past the 256 of the HMAC. A decoder
   * ignores them, so four strings decode to the same signature; only the one this service writes
   * (those bits zero) is accepted.
   */
  @Test
  void signature_isAcceptedInItsOneEncodingOnly() {
    String token = signedRaw(HS256, "{\"sub\":\"bob\",\"exp\":" + EXP + "}");
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    int last = alphabet.indexOf(token.charAt(token.length() - 1));
    assertThat(last & 0b11).as("the canonical encoding leaves the spare bits zero").isZero();
    String body = token.substring(0, token.length() - 1);
    for (int spare = 1; spare <= 0b11; spare++) {
      String variant = body + alphabet.charAt(last | spare);
      assertThat(
              java.util.Base64.getUrlDecoder()
                  .decode(variant.substring(variant.lastIndexOf('.') + 1)))
          .as("decodes to the same signature")
          .isEqualTo(
              java.util.Base64.getUrlDecoder().decode(token.substring(token.lastIndexOf('.') + 1)));
      assertThat(tokens.verify(variant)).as(variant).isEmpty();
    }
    assertThat(tokens.verify(token)).contains(new Caller("bob", false));
  }
}
