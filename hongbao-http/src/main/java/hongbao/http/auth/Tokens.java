package hongbao.http.auth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import hongbao.core.packet.SendRules;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HS256 bearer tokens signed with the service secret: claim {@code sub} (a JSON string) is the user
 * id, {@code admin: true} marks an operator. A token is refused from its {@code exp} on and before
 * its {@code nbf}; no clock skew is allowed either way. {@code exp} is optional, as in the JWT
 * standard and the API's contract (a client may sign its own tokens with {@code sub} alone); an
 * install that wants every credential to lapse refuses tokens without it ({@link
 * ExpiryRule#REQUIRED}), since such a token can be withdrawn only by changing the secret.
 */
public final class Tokens {

  /** HS256 needs a key of at least 256 bits. */
  public static final int MIN_SECRET_BYTES = 32;

  /** Far beyond a minted token (~200 characters); a longer header is not worth decoding. */
  static final int MAX_TOKEN_CHARS = 4_096;

  private static final String HMAC_SHA256 = "HmacSHA256";
  private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();
  private static final Base64.Encoder SIGNATURE = Base64.getUrlEncoder().withoutPadding();

  /** Rejects a repeated member, as the JOSE library's parser did: one claim, one value. */
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private final MACSigner signer;

  /** The header part of every token {@link #mint} makes ({@code {"alg":"HS256"}}). */
  private final String mintedHeader = new JWSHeader(JWSAlgorithm.HS256).toBase64URL().toString();

  /** One keyed Mac per thread: looking one up and keying it costs as much as the HMAC itself. */
  private final ThreadLocal<Mac> macs;

  private final Clock clock;
  private final ExpiryRule expiryRule;

  /** Whether a token must carry {@code exp}. */
  public enum ExpiryRule {
    OPTIONAL,
    REQUIRED
  }

  /** Tokens whose {@code exp} is optional. */
  public Tokens(String secret, Clock clock) {
    this(secret, clock, ExpiryRule.OPTIONAL);
  }

  public Tokens(String secret, Clock clock, ExpiryRule expiryRule) {
    byte[] key = secret.getBytes(StandardCharsets.UTF_8);
    if (key.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the JWT secret must have at least " + MIN_SECRET_BYTES + " bytes");
    }
    try {
      this.signer = new MACSigner(key);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unusable JWT secret", e);
    }
    var keySpec = new SecretKeySpec(key, HMAC_SHA256);
    this.macs = ThreadLocal.withInitial(() -> keyed(keySpec));
    keyed(keySpec); // fails now, not on the first request, if the JVM cannot
    this.clock = clock;
    this.expiryRule = expiryRule;
  }

  private static Mac keyed(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance(HMAC_SHA256);
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every JVM", e);
    }
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

  /**
   * A token that verified: its caller, and its {@code exp} in whole epoch seconds ({@code
   * Long.MAX_VALUE} without one).
   */
  record Verified(Caller caller, long expirySecond) {}

  /** The caller of a valid token, or empty for anything else: see {@link #verified}. */
  public Optional<Caller> verify(String token) {
    Verified verified = verified(token);
    return verified == null ? Optional.empty() : Optional.of(verified.caller());
  }

  /**
   * The caller and expiry of a valid token, or null for anything else. Every grab brings a token,
   * most of them new to {@link VerifiedTokens} on a hot packet, so this is read by hand rather than
   * through the JOSE library's object model (which parsed the JSON twice and looked up a Mac each
   * time): the HMAC is checked first, over the token's own characters, and only a token this
   * service signed is parsed at all. The rules are the class's: HS256 only, no critical header
   * parameters, a JSON string {@code sub}, a numeric {@code exp} that has not passed, no {@code
   * nbf} still ahead.
   */
  Verified verified(String token) {
    if (token == null || token.length() > MAX_TOKEN_CHARS) {
      return null;
    }
    int first = token.indexOf('.');
    int second = token.indexOf('.', first + 1);
    if (!isCompactJws(token, first, second)) {
      return null;
    }
    // Characters outside ASCII become '?', which no base64url part holds: such a token fails
    // below, at the signature or in the decoders.
    byte[] ascii = token.getBytes(StandardCharsets.US_ASCII);
    try {
      Mac mac = macs.get();
      mac.update(ascii, 0, second);
      if (!isSignature(ascii, second + 1, mac.doFinal())) {
        return null;
      }
      // The header this service mints is one string: only another one is decoded and read.
      boolean minted = first == mintedHeader.length() && token.startsWith(mintedHeader);
      if (!minted && !isHs256Header(BASE64URL.decode(token.substring(0, first)))) {
        return null;
      }
      ByteBuffer payload = BASE64URL.decode(ByteBuffer.wrap(ascii, first + 1, second - first - 1));
      return claims(
          payload.array(), payload.arrayOffset() + payload.position(), payload.remaining());
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Whether {@code ascii} from {@code from} to its end is exactly {@code mac} in unpadded
   * base64url: one encoding of a signature is accepted, not every string that decodes to it. Every
   * character is compared, whatever the first difference, so the time taken tells nothing of how
   * much of a forged signature was right.
   */
  private static boolean isSignature(byte[] ascii, int from, byte[] mac) {
    byte[] expected = SIGNATURE.encode(mac);
    if (ascii.length - from != expected.length) {
      return false;
    }
    int difference = 0;
    for (int i = 0; i < expected.length; i++) {
      difference |= ascii[from + i] ^ expected[i];
    }
    return difference == 0;
  }

  /**
   * Three non-empty parts, without padding (as this class mints them; a padded signature would
   * otherwise decode to the same bytes). Characters outside base64url are left to the decoders,
   * which refuse them: the HMAC, taken over the characters as ASCII, matches only when the header
   * and payload decode as well.
   */
  private static boolean isCompactJws(String token, int first, int second) {
    return first > 0
        && second > first + 1
        && second < token.length() - 1
        && token.indexOf('.', second + 1) < 0
        && token.indexOf('=') < 0;
  }

  private static boolean isHs256Header(byte[] header) throws IOException {
    boolean hs256 = false;
    try (JsonParser parser = JSON.createParser(header)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if ("alg".equals(field)) {
          hs256 = value == JsonToken.VALUE_STRING && "HS256".equals(parser.getText());
          parser.skipChildren();
        } else if ("crit".equals(field)) {
          return false; // no extension is understood, so none may be critical
        } else {
          parser.skipChildren();
        }
      }
      return hs256 && parser.nextToken() == null;
    }
  }

  private Verified claims(byte[] payload, int offset, int length) throws IOException {
    String subject = null;
    Long expiry = null;
    Long notBefore = null;
    boolean admin = false;
    try (JsonParser parser = JSON.createParser(payload, offset, length)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        switch (field) {
          case "sub" -> {
            // A numeric sub is no user id: the claim must be a JSON string.
            if (value != JsonToken.VALUE_STRING) {
              return null;
            }
            subject = parser.getText();
          }
          case "exp", "nbf", "iat" -> {
            if (!value.isNumeric()) {
              return null;
            }
            long seconds = parser.getLongValue();
            if (field.equals("exp")) {
              expiry = seconds;
            } else if (field.equals("nbf")) {
              notBefore = seconds;
            }
          }
          case "admin" -> {
            admin = value == JsonToken.VALUE_TRUE;
            parser.skipChildren();
          }
          default -> parser.skipChildren();
        }
      }
      if (parser.nextToken() != null) {
        return null;
      }
    }
    // Whole seconds compared as numbers: an exp or nbf beyond what an Instant holds is a claim
    // like any other, not an exception. exp > now's second is exactly "exp is after now".
    long nowSecond = clock.instant().getEpochSecond();
    if (expiry == null) {
      if (expiryRule == ExpiryRule.REQUIRED) {
        return null;
      }
      expiry = Long.MAX_VALUE;
    }
    if (expiry <= nowSecond) {
      return null;
    }
    if (notBefore != null && notBefore > nowSecond) {
      return null;
    }
    if (!SendRules.isUserId(subject)) {
      return null;
    }
    return new Verified(new Caller(subject, admin), expiry);
  }
}
