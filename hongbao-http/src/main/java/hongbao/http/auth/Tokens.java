package hongbao.http.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimNames;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import hongbao.core.packet.SendRules;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;

/**
 * HS256 bearer tokens signed with the service secret: claim {@code sub} (a JSON string) is the user
 * id, {@code admin: true} marks an operator. A token must carry {@code exp}: one without it would
 * be a credential that can never be withdrawn but by changing the secret. A token is refused from
 * its {@code exp} on and before its {@code nbf}; no clock skew is allowed either way.
 */
public final class Tokens {

  /** HS256 needs a key of at least 256 bits. */
  public static final int MIN_SECRET_BYTES = 32;

  private final MACSigner signer;
  private final MACVerifier verifier;
  private final Clock clock;

  public Tokens(String secret, Clock clock) {
    byte[] key = secret.getBytes(StandardCharsets.UTF_8);
    if (key.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the JWT secret must have at least " + MIN_SECRET_BYTES + " bytes");
    }
    try {
      this.signer = new MACSigner(key);
      this.verifier = new MACVerifier(key);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable JWT secret", e);
    }
    this.clock = clock;
  }

  public String mint(String userId, boolean admin, Duration lifetime) {
    Instant now = clock.instant();
    var claims =
        new JWTClaimsSet.Builder()
            .subject(userId)
            .claim("admin", admin)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(lifetime)))
            .build();
    var jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("signing failed", e);
    }
    return jwt.serialize();
  }

  /** The caller of a valid token, or empty for anything else. */
  public Optional<Caller> verify(String token) {
    try {
      SignedJWT jwt = SignedJWT.parse(token);
      if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
        return Optional.empty();
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      Instant now = clock.instant();
      Date expiry = claims.getExpirationTime();
      if (expiry == null || !expiry.toInstant().isAfter(now)) {
        return Optional.empty();
      }
      Date notBefore = claims.getNotBeforeTime();
      if (notBefore != null && notBefore.toInstant().isAfter(now)) {
        return Optional.empty();
      }
      // The claims set reads a numeric sub as its decimal text; the payload keeps the JSON type.
      if (!(jwt.getPayload().toJSONObject().get(JWTClaimNames.SUBJECT) instanceof String subject)
          || !SendRules.USER_ID.matcher(subject).matches()) {
        return Optional.empty();
      }
      return Optional.of(new Caller(subject, Boolean.TRUE.equals(claims.getClaim("admin"))));
    } catch (ParseException | JOSEException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
