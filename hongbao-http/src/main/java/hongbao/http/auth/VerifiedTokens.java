package hongbao.http.auth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link Tokens} that remembers what it verified. Verifying a token parses it, parses its claims
 * and checks its HMAC: 12% of the service's CPU samples in a profile of the hot bench. A user sends
 * the same token with every request, so a token that verified is kept, with its caller, until its
 * {@code exp} (never longer than {@link #MAX_AGE}); until then the same string answers the same
 * caller without verifying it again. Anything not remembered is verified by {@code Tokens} as
 * before, so its rules stay the only rules.
 *
 * <p>This relies on one property of those rules: a token valid at some instant stays valid until
 * its {@code exp} (nothing revokes a token, and a signature or a claim does not change). The {@code
 * exp} is read from the token's payload after {@code Tokens} accepted it; a token whose {@code exp}
 * cannot be read is simply not remembered. Thread-safe.
 */
public final class VerifiedTokens {

  /** The longest a token is remembered before {@code Tokens} is asked again. */
  public static final Duration MAX_AGE = Duration.ofMinutes(5);

  /** Slots of the table (a power of two); about 300 bytes a filled slot, some 20 MB in all. */
  public static final int DEFAULT_SLOTS = 1 << 16;

  /** Tokens longer than this are verified every time rather than kept. */
  static final int MAX_REMEMBERED_LENGTH = 2_048;

  private static final JsonFactory JSON = new JsonFactory();

  private record Verified(String token, Caller caller, Instant until) {}

  private final Tokens tokens;
  private final Clock clock;

  /**
   * A direct-mapped table: a token has one slot (by its hash) and a newer token in the same slot
   * replaces it. A cache with an eviction policy cost a third as much again as the verification on
   * every miss, and the hot path is all misses when every grab comes from a new user; here a miss
   * costs one array store. Slots hold immutable records, so racing readers and writers see either
   * the old entry or the new one, whole.
   */
  private final Verified[] slots;

  private final LongAdder answeredFromMemory = new LongAdder();

  public VerifiedTokens(Tokens tokens, Clock clock, int slots) {
    if (slots < 1 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two: " + slots);
    }
    this.tokens = tokens;
    this.clock = clock;
    this.slots = new Verified[slots];
  }

  public VerifiedTokens(Tokens tokens, Clock clock) {
    this(tokens, clock, DEFAULT_SLOTS);
  }

  /** The caller of a valid token, or empty for anything else; as {@link Tokens#verify}. */
  public Optional<Caller> verify(String token) {
    if (token == null || token.length() > MAX_REMEMBERED_LENGTH) {
      return tokens.verify(token);
    }
    int slot = slot(token);
    Verified known = slots[slot];
    Instant now = clock.instant();
    if (known != null && known.token().equals(token) && now.isBefore(known.until())) {
      answeredFromMemory.increment();
      return Optional.of(known.caller());
    }
    Optional<Caller> caller = tokens.verify(token);
    if (caller.isPresent()) {
      Instant until = rememberUntil(token, now);
      if (until != null) {
        slots[slot] = new Verified(token, caller.get(), until);
      }
    }
    return caller;
  }

  private int slot(String token) {
    int hash = token.hashCode();
    return (hash ^ (hash >>> 16)) & (slots.length - 1);
  }

  public String mint(String userId, boolean admin, Duration lifetime) {
    return tokens.mint(userId, admin, lifetime);
  }

  /** How many verifications were answered from memory: for tests. */
  long hits() {
    return answeredFromMemory.sum();
  }

  /**
   * Until when a token {@code Tokens} has just accepted may be answered from memory: its {@code
   * exp} in whole seconds rounded down (never later than the claim), at most {@link #MAX_AGE} from
   * now; null when the payload or its {@code exp} cannot be read.
   */
  private static Instant rememberUntil(String token, Instant now) {
    int first = token.indexOf('.');
    int second = token.indexOf('.', first + 1);
    if (first < 0 || second < 0) {
      return null;
    }
    byte[] payload;
    try {
      payload = Base64.getUrlDecoder().decode(token.substring(first + 1, second));
    } catch (IllegalArgumentException e) {
      return null;
    }
    Instant latest = now.plus(MAX_AGE);
    OptionalLong expiry = scanExpiry(payload);
    if (expiry == null) {
      expiry = parseExpiry(payload);
    }
    if (expiry == null) {
      return null;
    }
    if (expiry.isEmpty()) {
      return latest;
    }
    Instant claimed = Instant.ofEpochSecond(expiry.getAsLong());
    return claimed.isBefore(latest) ? claimed : latest;
  }

  private static final byte[] EXP = "\"exp\"".getBytes(StandardCharsets.US_ASCII);

  /**
   * The quick reading, for the payload this service mints: the one occurrence of {@code "exp"}
   * followed by a colon and whole seconds. Null (ask the parser) for anything else. Reading a lone
   * {@code "exp"} that is not the top-level claim is harmless: then the token has no expiry for
   * {@code Tokens} either, and {@link #MAX_AGE} still bounds the memory.
   */
  private static OptionalLong scanExpiry(byte[] payload) {
    int at = indexOf(payload, EXP, 0);
    if (at < 0) {
      return null;
    }
    if (indexOf(payload, EXP, at + EXP.length) >= 0) {
      return null;
    }
    int i = skipSpaces(payload, at + EXP.length);
    if (i >= payload.length || payload[i] != ':') {
      return null;
    }
    i = skipSpaces(payload, i + 1);
    long seconds = 0;
    int digits = 0;
    for (; i < payload.length && payload[i] >= '0' && payload[i] <= '9'; i++, digits++) {
      if (digits == 12) {
        return null;
      }
      seconds = seconds * 10 + (payload[i] - '0');
    }
    i = skipSpaces(payload, i);
    if (digits == 0 || i >= payload.length || (payload[i] != ',' && payload[i] != '}')) {
      return null;
    }
    return OptionalLong.of(seconds);
  }

  /**
   * The full reading: the top-level {@code exp} (empty when there is none), rounded down to whole
   * seconds; null when the payload is not an object or {@code exp} is not a single number.
   */
  private static OptionalLong parseExpiry(byte[] payload) {
    try (JsonParser parser = JSON.createParser(payload)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      OptionalLong expiry = OptionalLong.empty();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if ("exp".equals(field)) {
          if (expiry.isPresent() || !value.isNumeric()) {
            return null;
          }
          expiry = OptionalLong.of((long) Math.floor(parser.getDoubleValue()));
        } else {
          parser.skipChildren();
        }
      }
      return expiry;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static int skipSpaces(byte[] bytes, int from) {
    int i = from;
    while (i < bytes.length
        && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r')) {
      i++;
    }
    return i;
  }
}
